package io.github.leanscrape.reuse;

import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * What is kept for one kind (format and name filter): what stands for its last body (one
 * {@link Holding} and what it holds), its last compressed form in each coding, and
 * whether keeping them pays. The holding changes only through the transitions below;
 * guarded by the {@link KeptBodies} that holds it.
 *
 * <pre>
 *                 keep                take                 drop for room (gzip form by segment)
 *   NOTHING ───────────────▶ BODY ───────────▶ TAKEN       BODY ──────────────────────▶ STAND_IN
 *   (any)   ───────────────▶ BODY ◀─────────── TAKEN       BODY ──────────────────────▶ NOTHING
 *                                  give back                     drop for room (no such form)
 *   TAKEN   ───────────────▶ NOTHING   (its rendering ends resting)
 *   STAND_IN ──────────────▶ NOTHING   (drop stand-ins)
 * </pre>
 *
 * @author leanscrape
 */
final class KeptKind {

	/**
	 * What stands for a kind's last body.
	 */
	enum Holding {

		/** Nothing: the kind's first rendering is to come, or its body was dropped. */
		NOTHING,

		/** Its last body, offered to the next rendering to copy from. */
		BODY,

		/**
		 * Its last body, taken by the rendering that replaces it ({@link RenderLease}),
		 * which reads it as it writes and gives it back to the pool behind it; still
		 * counted as kept for what it holds, until it is replaced or released.
		 */
		TAKEN,

		/**
		 * Its last body was dropped to make room for another kind's rendering, and its
		 * gzip form by segment stands in for it ({@link DroppedBody}).
		 */
		STAND_IN

	}

	private Holding holding = Holding.NOTHING;

	/** The last body while {@link Holding#BODY} or {@link Holding#TAKEN}. */
	private @Nullable KeptBody body;

	/** What is left of the last body while {@link Holding#STAND_IN}. */
	private @Nullable DroppedBody standIn;

	/**
	 * Whether the kind's body was dropped for room without a gzip form to stand in: its
	 * gzip forms are then all compressed by segment, to stand in next time.
	 */
	boolean crowded;

	final @Nullable KeptEncoding[] encodings = new KeptEncoding[ContentCoding.values().length];

	long renderedNanos;

	/** Whether keeping the kind's bodies pays, or it rests. */
	final KeepCredit credit = new KeepCredit();

	Holding holding() {
		return this.holding;
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
	 * Return what stands in for the last body, dropped for room.
	 * @return the stand-in, or {@code null}
	 */
	@Nullable DroppedBody standIn() {
		return (this.holding == Holding.STAND_IN) ? this.standIn : null;
	}

	/**
	 * Keep a new last body, from any holding.
	 * @param body the new body, whose reference this kind now holds
	 * @return the body kept before it, whose reference the caller releases, or
	 * {@code null}
	 */
	@Nullable KeptBody keep(KeptBody body) {
		KeptBody replaced = body();
		this.holding = Holding.BODY;
		this.body = body;
		this.standIn = null;
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
	 * Drop the kept body for room: {@link Holding#BODY} to {@link Holding#STAND_IN} where
	 * a gzip form stands in for it, else to {@link Holding#NOTHING}.
	 * @param standIn what stands in, or {@code null}
	 * @return the body dropped, whose reference the caller releases
	 */
	KeptBody dropForRoom(@Nullable DroppedBody standIn) {
		KeptBody dropped = body();
		if (dropped == null) {
			throw new IllegalStateException("No body kept, but " + this.holding);
		}
		this.holding = (standIn != null) ? Holding.STAND_IN : Holding.NOTHING;
		this.body = null;
		this.standIn = standIn;
		return dropped;
	}

	/**
	 * Drop what stands in for the body: {@link Holding#STAND_IN} to
	 * {@link Holding#NOTHING}.
	 */
	void dropStandIn() {
		assertHolding(Holding.STAND_IN);
		this.holding = Holding.NOTHING;
		this.standIn = null;
	}

	private void assertHolding(Holding expected) {
		if (this.holding != expected) {
			throw new IllegalStateException("Expected " + expected + ", but " + this.holding);
		}
	}

}
