package io.github.leanscrape.reuse;

import java.util.List;

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

	private static final int GZIP_SLOT = ContentCoding.GZIP.ordinal();

	/**
	 * What stands for a kind's last body.
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

	/**
	 * Drop what is kept for this kind to make room for a rendering of another: its body,
	 * and every compressed form but a gzip form by segment of that body, which stands in
	 * for it. Where no such form is kept, the kind becomes crowded (its next gzip forms
	 * are compressed by segment, to stand in the next time), and rests when already
	 * crowded. A kind whose form already stands in keeps it.
	 * @param plains where the body dropped goes, for the caller to release
	 * @param forms where the forms dropped go, for the caller to release; both lists have
	 * room enough that adding to them does not allocate
	 */
	void makeRoom(List<KeptBody> plains, List<KeptEncoding> forms) {
		if (this.holding == Holding.STAND_IN) {
			return;
		}
		KeptBody plain = body();
		KeptEncoding gzip = this.encodings[GZIP_SLOT];
		long[] gzipEnds = null;
		if (plain != null && gzip != null && gzip.encoded != null) {
			// The form of this body, or of the one before it where a new body was kept
			// before its gzip form was made: a crowded kind's forms know where their
			// segments end.
			gzipEnds = (gzip.versions == plain.versions) ? segmentEnds(plain.body) : gzip.plainEnds;
		}
		boolean standsIn = gzip != null && gzip.encoded != null && gzipEnds != null
				&& gzipEnds.length == gzip.encoded.segmentCount();
		DroppedBody dropped = (plain != null && standsIn && gzip != null && gzipEnds != null)
				? new DroppedBody(gzip, gzipEnds, plain) : null;
		// Nothing below allocates.
		if (plain != null) {
			plains.add(dropForRoom(dropped));
		}
		for (int i = 0; i < this.encodings.length; i++) {
			KeptEncoding form = this.encodings[i];
			if (form != null && !(standsIn && i == GZIP_SLOT)) {
				forms.add(form);
				this.encodings[i] = null;
			}
		}
		if (!standsIn && plain != null) {
			if (!this.crowded) {
				this.crowded = true;
			}
			else if (!this.credit.rests()) {
				// A kind that already rests goes on with its rest.
				this.credit.rest();
			}
		}
	}

	/**
	 * Drop the gzip form that stands in for the body dropped for room, where making room
	 * for another kind's rendering did not make enough; the kind rests, as after a drop
	 * without a form to stand in: where a body and a form do not fit beside a rendering,
	 * it would otherwise compress by segment and note what can be copied for nothing.
	 * @param forms where the form dropped goes, for the caller to release
	 */
	void dropStandIn(List<KeptEncoding> forms) {
		DroppedBody dropped = standIn();
		if (dropped == null) {
			return;
		}
		dropStandIn();
		if (this.encodings[GZIP_SLOT] == dropped.gzip) {
			this.encodings[GZIP_SLOT] = null;
			forms.add(dropped.gzip);
		}
		if (!this.credit.rests()) {
			this.credit.rest();
		}
	}

	/**
	 * Keep a new body in place of the last one, and count the last one as kept for
	 * something or for nothing ({@link KeepCredit}): the body the rendering took counts
	 * as the one replaced; a body with nothing before it to copy from counts only where a
	 * coding used it (the first of a kind, or the first after a rest); a body dropped for
	 * room counts as it would have.
	 * @param plain the new body, whose reference the caller takes for this kind
	 * @param previous the body the rendering was offered or took, or {@code null}
	 * @param taken whether the rendering took it
	 * @param copiesPay whether the rendering copied enough of it for copying to pay
	 * @return the body kept before, whose reference the caller releases, or {@code null}
	 */
	@Nullable KeptBody replaceBody(KeptBody plain, @Nullable KeptBody previous, boolean taken, boolean copiesPay) {
		DroppedBody before = standIn();
		KeptBody replaced = keep(plain);
		KeptBody last = (replaced == null && taken) ? previous : replaced;
		if (copiesPay && last != null && previous == last) {
			last.used = true;
		}
		if (last != null) {
			this.credit.kept(last.unchangedShare >= 0 || last.used, last.used);
		}
		else if (before != null) {
			this.credit.kept(before.unchangedShare >= 0 || before.used, before.used);
		}
		else {
			this.credit.kept(false, false);
		}
		return replaced;
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
			if (form != null && form.encoded != null) {
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

	/**
	 * Return where each segment of a body ends.
	 * @param body the body
	 * @return the end of each segment
	 */
	static long[] segmentEnds(PooledBody body) {
		long[] ends = new long[body.segmentCount()];
		for (int i = 0; i < ends.length; i++) {
			ends[i] = body.segmentEnd(i);
		}
		return ends;
	}

	private void assertHolding(Holding expected) {
		if (this.holding != expected) {
			throw new IllegalStateException("Expected " + expected + ", but " + this.holding);
		}
	}

}
