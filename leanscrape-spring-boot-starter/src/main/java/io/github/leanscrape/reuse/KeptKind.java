package io.github.leanscrape.reuse;

import java.util.List;

import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * What is kept for one kind (format and name filter): its {@link Holding}, the last body
 * while it holds one, its last compressed form in each coding, and whether keeping them
 * pays ({@link KeepCredit}). The holding changes only through the transitions below;
 * guarded by the {@link KeptBodies} that holds it.
 *
 * <pre>
 *             keep                  take
 *   NOTHING ─────────▶ BODY ─────────────────▶ TAKEN
 *                      BODY ◀───────────────── TAKEN     give back, or keep the next body
 *                      BODY ─────────────────▶ NOTHING   drop for room, or end a taken holding
 *   BODY or TAKEN ───────────────────────────▶ RESTING   kept for nothing too often: drops all
 *   RESTING ─────────────────────────────────▶ NOTHING   after its rest's renderings
 * </pre>
 *
 * @author leanscrape
 */
final class KeptKind {

	/**
	 * What a kind holds.
	 */
	enum Holding {

		/** Nothing: the kind's first rendering is to come, or its body was dropped. */
		NOTHING,

		/** Its last body, offered to the next rendering to copy from. */
		BODY,

		/**
		 * Its last body, taken by the rendering that replaces it ({@link RenderLease})
		 * where what is kept held its only reference, which reads it as it writes and
		 * gives it back to the pool behind it; still counted as kept for what it holds,
		 * until it is replaced or released. Offered to no other rendering or coding, so
		 * that the rendering's reference stays its only one.
		 */
		TAKEN,

		/**
		 * Nothing, for a number of renderings: keeping its bodies did not pay
		 * ({@link KeepCredit}), so they are written and compressed whole.
		 */
		RESTING

	}

	private Holding holding = Holding.NOTHING;

	/** The last body while {@link Holding#BODY} or {@link Holding#TAKEN}. */
	private @Nullable KeptBody body;

	final @Nullable KeptEncoding[] encodings = new KeptEncoding[ContentCoding.values().length];

	long renderedNanos;

	/** Whether keeping the kind's bodies pays, and how long it rests. */
	final KeepCredit credit = new KeepCredit();

	Holding holding() {
		return this.holding;
	}

	/**
	 * Return whether the kind rests: its next body is neither offered a kept one nor
	 * kept.
	 * @return whether it rests
	 */
	boolean rests() {
		return this.holding == Holding.RESTING;
	}

	/**
	 * Return the last body while it is kept, not taken.
	 * @return the body, or {@code null}
	 */
	@Nullable KeptBody body() {
		return (this.holding == Holding.BODY) ? this.body : null;
	}

	/**
	 * Return the last body while a rendering has taken it.
	 * @return the body, or {@code null}
	 */
	@Nullable PooledBody taken() {
		KeptBody taken = this.body;
		return (this.holding == Holding.TAKEN && taken != null) ? taken.body : null;
	}

	/**
	 * Keep a new last body, from any holding but {@link Holding#RESTING}.
	 * @param body the new body, whose reference this kind now holds
	 * @return the body kept before it, whose reference the caller releases, or
	 * {@code null}
	 */
	@Nullable KeptBody keep(KeptBody body) {
		if (this.holding == Holding.RESTING) {
			throw new IllegalStateException("Resting");
		}
		KeptBody replaced = body();
		this.holding = Holding.BODY;
		this.body = body;
		return replaced;
	}

	/**
	 * Hand the kept body to the rendering that replaces it: {@link Holding#BODY} to
	 * {@link Holding#TAKEN}.
	 */
	void take() {
		assertHolding(Holding.BODY);
		this.holding = Holding.TAKEN;
	}

	/**
	 * End a {@link Holding#TAKEN} holding of one body, which its rendering gives back.
	 * @param body the body taken
	 * @return whether the kind held it as taken
	 */
	boolean endTaken(PooledBody body) {
		if (taken() != body) {
			return false;
		}
		this.holding = Holding.NOTHING;
		this.body = null;
		return true;
	}

	/**
	 * End a {@link Holding#TAKEN} holding, whichever body was taken: the rendering that
	 * took it ends now, having kept its own body or not.
	 */
	void clearTaken() {
		if (this.holding == Holding.TAKEN) {
			this.holding = Holding.NOTHING;
			this.body = null;
		}
	}

	/**
	 * Drop what is kept for this kind to make room for a rendering of another:
	 * {@link Holding#BODY} to {@link Holding#NOTHING}, dropping the body and its
	 * compressed forms. The body counts as kept for nothing, so that a kind dropped again
	 * and again rests instead of keeping bodies only to drop them.
	 * @param plains where the body dropped goes, for the caller to release
	 * @param forms where the forms dropped go, for the caller to release; both lists have
	 * room enough that adding to them does not allocate
	 */
	void makeRoom(List<KeptBody> plains, List<KeptEncoding> forms) {
		KeptBody plain = body();
		if (plain == null) {
			return;
		}
		this.holding = Holding.NOTHING;
		this.body = null;
		plains.add(plain);
		dropForms(forms);
		this.credit.kept(true, false);
		if (this.credit.rests()) {
			this.holding = Holding.RESTING;
		}
	}

	/**
	 * Count a rendering of this kind while it rests, whose body is not kept:
	 * {@link Holding#RESTING} to {@link Holding#NOTHING} once its rest is over.
	 */
	void notKept() {
		assertHolding(Holding.RESTING);
		this.credit.notKept();
		if (!this.credit.rests()) {
			this.holding = Holding.NOTHING;
		}
	}

	private void dropForms(List<KeptEncoding> forms) {
		for (int i = 0; i < this.encodings.length; i++) {
			KeptEncoding form = this.encodings[i];
			if (form != null) {
				forms.add(form);
				this.encodings[i] = null;
			}
		}
	}

	/**
	 * Keep a new body in place of the last one, and count the last one as kept for
	 * something or for nothing ({@link KeepCredit}): the body the rendering took counts
	 * as the one replaced; a body with nothing before it to copy from counts only where a
	 * coding used it (the first of a kind, or the first after a rest). Where that count
	 * makes the kind rest, it keeps nothing: {@link Holding#RESTING}, the new body and
	 * every form in the lists for the caller to release.
	 * @param plain the new body, whose reference the caller takes for this kind
	 * @param previous the body the rendering was offered or took, or {@code null}
	 * @param taken whether the rendering took it
	 * @param copiesPay whether the rendering copied enough of it for copying to pay
	 * @param plains where the bodies no longer kept go (the one kept before, and the new
	 * one where the kind now rests), for the caller to release
	 * @param forms where the forms dropped go, for the caller to release
	 */
	void replaceBody(KeptBody plain, @Nullable KeptBody previous, boolean taken, boolean copiesPay,
			List<KeptBody> plains, List<KeptEncoding> forms) {
		KeptBody replaced = keep(plain);
		if (replaced != null) {
			plains.add(replaced);
		}
		KeptBody last = (replaced == null && taken) ? previous : replaced;
		if (copiesPay && last != null && previous == last) {
			last.used = true;
		}
		if (last != null) {
			this.credit.kept(last.unchangedShare >= 0 || last.used, last.used);
		}
		else {
			this.credit.kept(false, false);
		}
		if (this.credit.rests()) {
			this.holding = Holding.RESTING;
			this.body = null;
			plains.add(plain);
			dropForms(forms);
		}
	}

	/**
	 * Return how many chunks this kind holds: its last body, kept or taken (for what the
	 * rendering that replaces it has not given back yet), and its compressed forms, each
	 * a body of its own.
	 * @return the chunks
	 */
	long heldChunks() {
		long chunks = 0;
		KeptBody plain = this.body;
		if (plain != null && (this.holding == Holding.BODY || this.holding == Holding.TAKEN)) {
			chunks += plain.body.heldChunks();
		}
		for (KeptEncoding form : this.encodings) {
			if (form != null) {
				chunks += form.encoded.body().heldChunks();
			}
		}
		return chunks;
	}

	/**
	 * Give back what this kind holds, once it is no longer kept: its last body, unless a
	 * rendering took it, and its compressed forms.
	 */
	void release() {
		KeptBody plain = body();
		if (plain != null) {
			plain.release();
		}
		for (KeptEncoding form : this.encodings) {
			if (form != null) {
				form.release();
			}
		}
	}

	private void assertHolding(Holding expected) {
		if (this.holding != expected) {
			throw new IllegalStateException("Expected " + expected + ", but " + this.holding);
		}
	}

}
