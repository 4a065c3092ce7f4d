package io.github.leanscrape.reuse;

import java.util.List;

import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * What is kept for one kind: its {@link Holding}, its last body, its last form by segment
 * in each coding, and whether keeping them pays ({@link KeepCredit}). The holding changes
 * only through its transition methods (docs/design.md's table), under the lock of the
 * {@link KeptBodies} that holds it.
 *
 * @author leanscrape
 */
final class KeptKind {

	/** What a kind holds. */
	enum Holding {

		/** Nothing: the kind's first rendering is to come, or its body was dropped. */
		NOTHING,

		/** Its last body, offered to the next rendering to copy from. */
		BODY,

		/** Its last body, taken by the rendering that replaces it: its only reference. */
		TAKEN,

		/** Nothing, for a number of renderings: keeping its bodies did not pay. */
		RESTING

	}

	private Holding holding = Holding.NOTHING;

	/** The last body while {@link Holding#BODY} or {@link Holding#TAKEN}. */
	private @Nullable KeptBody body;

	final @Nullable KeptForm[] formsByCoding = new KeptForm[ContentCoding.values().length];

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

	// Returns the body kept before it, for the caller to release.
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

	// Ends the TAKEN holding of a body its rendering gives back, where it is that body.
	boolean endTaken(PooledBody body) {
		if (taken() != body) {
			return false;
		}
		clear();
		return true;
	}

	// Ends a TAKEN holding, whichever body: its rendering ends now.
	void clearTaken() {
		if (this.holding == Holding.TAKEN) {
			clear();
		}
	}

	// The body dropped for room counts as kept for nothing, so that a kind dropped again
	// and again rests instead. The lists, for the caller to release, have room enough.
	void makeRoom(List<KeptBody> plains, List<KeptForm> forms) {
		KeptBody plain = body();
		if (plain != null) {
			this.credit.kept(true, false);
			drop(plain, plains, forms);
		}
	}

	// Counts a rendering while resting, to NOTHING at the rest's end.
	void notKept() {
		assertHolding(Holding.RESTING);
		this.credit.notKept();
		if (!this.credit.rests()) {
			this.holding = Holding.NOTHING;
		}
	}

	// A commit (docs/design.md's table); the body taken counts as the one replaced, and
	// one with nothing before it to copy from counts only where a coding used it.
	void replaceBody(KeptBody plain, @Nullable KeptBody previous, boolean taken, boolean copiesPay,
			List<KeptBody> plains, List<KeptForm> forms) {
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
			drop(plain, plains, forms);
		}
	}

	// Its body, kept or taken, and its forms.
	long heldChunks() {
		KeptBody plain = this.body;
		long chunks = (plain != null) ? plain.body.heldChunks() : 0;
		for (KeptForm form : this.formsByCoding) {
			if (form != null) {
				chunks += form.encoded().body().heldChunks();
			}
		}
		return chunks;
	}

	// Gives back what this kind holds once it is no longer kept, but a taken body.
	void release() {
		KeptBody plain = body();
		if (plain != null) {
			plain.release();
		}
		for (KeptForm form : this.formsByCoding) {
			if (form != null) {
				form.release();
			}
		}
	}

	private void clear() {
		this.holding = Holding.NOTHING;
		this.body = null;
	}

	// To the caller's lists; to RESTING where the count made the kind rest.
	private void drop(KeptBody plain, List<KeptBody> plains, List<KeptForm> forms) {
		this.holding = this.credit.rests() ? Holding.RESTING : Holding.NOTHING;
		this.body = null;
		plains.add(plain);
		for (int i = 0; i < this.formsByCoding.length; i++) {
			KeptForm form = this.formsByCoding[i];
			if (form != null) {
				forms.add(form);
				this.formsByCoding[i] = null;
			}
		}
	}

	private void assertHolding(Holding expected) {
		if (this.holding != expected) {
			throw new IllegalStateException("Expected " + expected + ", but " + this.holding);
		}
	}

}
