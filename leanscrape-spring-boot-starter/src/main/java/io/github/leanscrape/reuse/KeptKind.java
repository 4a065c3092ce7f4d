package io.github.leanscrape.reuse;

import java.util.List;

import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * What is kept for one kind: its {@link Holding}, its last body and its last form by
 * segment in each coding. The holding changes only through its transition methods
 * (docs/design.md's table), under the lock of the {@link KeptBodies} that holds it.
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
		TAKEN

	}

	private Holding holding = Holding.NOTHING;

	/** The last body while {@link Holding#BODY} or {@link Holding#TAKEN}. */
	private @Nullable KeptBody body;

	final @Nullable KeptForm[] formsByCoding = new KeptForm[ContentCoding.values().length];

	long renderedNanos;

	Holding holding() {
		return this.holding;
	}

	@Nullable KeptBody body() {
		// Offered only while BODY: a taken body is its rendering's alone.
		return (this.holding == Holding.BODY) ? this.body : null;
	}

	@Nullable PooledBody taken() {
		KeptBody taken = this.body;
		return (this.holding == Holding.TAKEN && taken != null) ? taken.body() : null;
	}

	// Returns the body kept before it, for the caller to release.
	@Nullable KeptBody keep(KeptBody body) {
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

	// Drops its body and forms for room, to the caller's lists, which have room enough.
	void makeRoom(List<KeptBody> plains, List<KeptForm> forms) {
		KeptBody plain = body();
		if (plain == null) {
			return;
		}
		clear();
		plains.add(plain);
		for (int i = 0; i < this.formsByCoding.length; i++) {
			KeptForm form = this.formsByCoding[i];
			if (form != null) {
				forms.add(form);
				this.formsByCoding[i] = null;
			}
		}
	}

	// Its body, kept or taken, and its forms.
	long heldChunks() {
		KeptBody plain = this.body;
		long chunks = (plain != null) ? plain.body().heldChunks() : 0;
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

	private void assertHolding(Holding expected) {
		if (this.holding != expected) {
			throw new IllegalStateException("Expected " + expected + ", but " + this.holding);
		}
	}

}
