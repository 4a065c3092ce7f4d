package io.github.leanscrape.reuse;

import java.util.List;

import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * What is kept for one kind (format and name filter): its {@link Holding}, the last body
 * while it holds one, its last compressed form by segment in each coding, and whether
 * keeping them pays ({@link KeepCredit}). The holding changes only through the methods
 * below, under the lock of the {@link KeptBodies} that holds it.
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
		 * Its last body, taken by the rendering that replaces it, which holds its only
		 * reference and gives it back to the pool as it writes; offered to nothing else,
		 * and counted as kept for what it still holds.
		 */
		TAKEN,

		/** Nothing, for a number of renderings: keeping its bodies did not pay. */
		RESTING

	}

	private Holding holding = Holding.NOTHING;

	/** The last body while {@link Holding#BODY} or {@link Holding#TAKEN}. */
	private @Nullable KeptBody body;

	final @Nullable KeptEncoding[] encodings = new KeptEncoding[ContentCoding.values().length];

	long renderedNanos;

	final KeepCredit credit = new KeepCredit();

	Holding holding() {
		return this.holding;
	}

	boolean rests() {
		return this.holding == Holding.RESTING;
	}

	@Nullable KeptBody body() {
		// Offered only while BODY: a taken body is its rendering's alone.
		return (this.holding == Holding.BODY) ? this.body : null;
	}

	@Nullable PooledBody taken() {
		KeptBody taken = this.body;
		return (this.holding == Holding.TAKEN && taken != null) ? taken.body : null;
	}

	/**
	 * Keep a new last body, from any holding but {@link Holding#RESTING}.
	 * @param body the new body, whose reference this kind now holds
	 * @return the body kept before it, for the caller to release, or {@code null}
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

	void take() {
		assertHolding(Holding.BODY);
		this.holding = Holding.TAKEN;
	}

	/**
	 * End a {@link Holding#TAKEN} holding of a body that its rendering gives back.
	 * @param body the body taken
	 * @return whether the kind held it as taken
	 */
	boolean endTaken(PooledBody body) {
		if (taken() != body) {
			return false;
		}
		clear();
		return true;
	}

	/** End a {@link Holding#TAKEN} holding, whichever body: its rendering ends now. */
	void clearTaken() {
		if (this.holding == Holding.TAKEN) {
			clear();
		}
	}

	/**
	 * Drop the body and forms to make room for another kind's rendering. The body counts
	 * as kept for nothing, so that a kind dropped again and again rests instead.
	 * @param plains where the body dropped goes, for the caller to release
	 * @param forms where the forms dropped go; both lists have room enough not to
	 * allocate
	 */
	void makeRoom(List<KeptBody> plains, List<KeptEncoding> forms) {
		KeptBody plain = body();
		if (plain == null) {
			return;
		}
		clear();
		plains.add(plain);
		dropForms(forms);
		this.credit.kept(true, false);
		if (this.credit.rests()) {
			this.holding = Holding.RESTING;
		}
	}

	/**
	 * Count a rendering not kept while resting, to {@link Holding#NOTHING} at its end.
	 */
	void notKept() {
		assertHolding(Holding.RESTING);
		this.credit.notKept();
		if (!this.credit.rests()) {
			this.holding = Holding.NOTHING;
		}
	}

	/**
	 * Keep a new body in place of the last, and count the last as kept for something or
	 * for nothing: the body taken counts as the one replaced; a body with nothing before
	 * it to copy from counts only where a coding used it. Where the count makes the kind
	 * rest, it keeps nothing ({@link Holding#RESTING}).
	 * @param plain the new body, whose reference the caller takes for this kind
	 * @param previous the body the rendering was offered or took, or {@code null}
	 * @param taken whether the rendering took it
	 * @param copiesPay whether the rendering copied enough of it for copying to pay
	 * @param plains where the bodies no longer kept go, for the caller to release
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
		this.credit.kept(last != null && (last.unchangedShare >= 0 || last.used), last != null && last.used);
		if (this.credit.rests()) {
			clear();
			this.holding = Holding.RESTING;
			plains.add(plain);
			dropForms(forms);
		}
	}

	/**
	 * Return how many chunks this kind holds: its body, kept or taken, and its forms.
	 * @return the chunks
	 */
	long heldChunks() {
		long chunks = 0;
		KeptBody plain = this.body;
		if (plain != null) {
			chunks += plain.body.heldChunks();
		}
		for (KeptEncoding form : this.encodings) {
			if (form != null) {
				chunks += form.encoded().body().heldChunks();
			}
		}
		return chunks;
	}

	/** Give back what this kind holds once it is no longer kept, but a taken body. */
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

	private void clear() {
		this.holding = Holding.NOTHING;
		this.body = null;
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

	private void assertHolding(Holding expected) {
		if (this.holding != expected) {
			throw new IllegalStateException("Expected " + expected + ", but " + this.holding);
		}
	}

}
