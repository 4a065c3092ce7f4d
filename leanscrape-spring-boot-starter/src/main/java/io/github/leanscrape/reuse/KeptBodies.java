package io.github.leanscrape.reuse;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import io.github.leanscrape.compression.BodyEncoder;
import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * The one owner of what is kept between scrapes (the terms are those of docs/design.md,
 * "What is kept between scrapes"). Per kind: a {@link KeptKind}, whose last body the next
 * rendering copies unchanged blocks from, through the {@link RenderLease} it opens here,
 * and whose compressed forms the next body's unchanged segments are copied from
 * ({@link KeptForms}). A body is kept for something when a coding compressed it by
 * segment or the next rendering copied a quarter of it; a kind whose bodies are kept for
 * nothing too often rests ({@link KeepCredit}). A rendering that waits for memory has the
 * other kinds shed what they keep ({@link #shed}). The kinds kept are a
 * {@link KeptKinds}, at most four, each dropped once idle for five minutes.
 *
 * @author leanscrape
 */
public final class KeptBodies {

	private static final int CODINGS = ContentCoding.values().length;

	private final boolean enabled;

	private final SegmentVersions segmentVersions = new SegmentVersions();

	private final KeptForms forms = new KeptForms(this);

	/** What is kept for each kind; guarded by this. */
	private final KeptKinds kinds = new KeptKinds();

	private final LongSupplier nanoClock;

	/**
	 * Create the kept bodies.
	 * @param enabled whether to keep anything
	 */
	public KeptBodies(boolean enabled) {
		this(enabled, System::nanoTime);
	}

	/**
	 * Create the kept bodies on a clock of their own, for tests.
	 * @param enabled whether to keep anything
	 * @param nanoClock the clock of {@link System#nanoTime()}'s kind that kept bodies
	 * expire by
	 */
	KeptBodies(boolean enabled, LongSupplier nanoClock) {
		this.enabled = enabled;
		this.nanoClock = nanoClock;
	}

	/**
	 * Open the lease of one rendering of a kind: it takes the kind's last body where
	 * nothing else holds it ({@link #take}), and is closed in every case.
	 * @param kind the kind, uncompressed
	 * @return the lease
	 */
	public RenderLease lease(BodyKind kind) {
		return new RenderLease(this, kind, take(kind), this.segmentVersions);
	}

	/**
	 * Return what a rendering of a kind may copy from once it starts: where it took the
	 * kind's last body, that body; else the last body ({@link #previous}); and whether
	 * the new body will be kept ({@link #keeps}).
	 * @param kind the kind, uncompressed
	 * @param taken the body the lease took, or {@code null}
	 * @return what is offered, with a reference the lease releases
	 */
	Offer offer(BodyKind kind, @Nullable KeptBody taken) {
		if (taken != null && !taken.body.isReleased()) {
			return new Offer(null, true);
		}
		return new Offer(previous(kind), keeps(kind));
	}

	/**
	 * Give back what is kept, for a rendering of a kind that waits for memory.
	 * @param kind the kind of the rendering
	 * @param what how much to give back
	 */
	public void shed(BodyKind kind, Shed what) {
		switch (what) {
			case OTHER_KINDS_BODIES -> makeRoomFor(kind);
			case EVERYTHING -> forgetAll();
		}
	}

	/**
	 * Return the last plain body of a kind, for a rendering to copy from, with a
	 * reference the caller must release ({@link KeptBody#release()}).
	 * @param kind the kind, uncompressed
	 * @return the kept body, or {@code null}
	 */
	@Nullable KeptBody previous(BodyKind kind) {
		return lastBody(kind, false);
	}

	/**
	 * Take the last plain body of a kind for the rendering that replaces it
	 * ({@link ReplacedBody}), where what is kept holds its only reference: no reader can
	 * take another once its holding is {@link KeptKind.Holding#TAKEN} (see
	 * {@link #lastBody}). The caller owns that reference and releases it or
	 * {@linkplain #giveBack gives it back}.
	 * @param kind the kind, uncompressed
	 * @return the kept body, or {@code null} where none can be taken
	 */
	@Nullable KeptBody take(BodyKind kind) {
		return lastBody(kind, true);
	}

	private @Nullable KeptBody lastBody(BodyKind kind, boolean take) {
		if (!this.enabled) {
			return null;
		}
		List<KeptKind> expired = new ArrayList<>(0);
		KeptBody plain = null;
		synchronized (this) {
			this.kinds.expire(this.nanoClock.getAsLong(), expired);
			KeptKind entry = this.kinds.get(kind);
			KeptBody kept = (entry != null) ? entry.body() : null;
			if (entry != null && kept != null) {
				if (!take && kept.body.tryRetain()) {
					plain = kept;
				}
				else if (take && kept.body.isOnlyReference()) {
					// Nothing but what is kept holds it: no scrape reads it (a scrape's
					// body, shared or cached, holds a reference of its own), no rendering
					// copies from it. Nothing can take a reference to it from now on: a
					// reference is taken from one held, or, to a kept body, here under
					// this lock, and every way to a kept body skips a TAKEN one
					// (previous and KeptForms.encode look at BODY only).
					entry.take();
					plain = kept;
				}
			}
		}
		try {
			release(expired);
		}
		catch (RuntimeException | Error ex) {
			if (plain != null) {
				plain.release();
			}
			throw ex;
		}
		return plain;
	}

	/**
	 * Give back a body {@linkplain #take taken} and not read, where its rendering was
	 * rejected: kept again where nothing took its place and it is whole, else released.
	 * @param kind the kind, uncompressed
	 * @param plain the body taken
	 */
	void giveBack(BodyKind kind, KeptBody plain) {
		synchronized (this) {
			KeptKind entry = this.kinds.get(kind);
			if (entry != null && entry.endTaken(plain.body) && !plain.body.isReleased() && plain.body.holds(0)) {
				entry.keep(plain);
				return;
			}
		}
		plain.release();
	}

	/**
	 * Return whether the next body of a kind will be kept, for its rendering to note what
	 * the one after it can copy: not while the kind rests.
	 * @param kind the kind, uncompressed
	 * @return whether to note what can be copied
	 */
	boolean keeps(BodyKind kind) {
		if (!this.enabled) {
			return false;
		}
		synchronized (this) {
			KeptKind entry = this.kinds.get(kind);
			return entry == null || !entry.rests();
		}
	}

	/**
	 * Keep a new body of a kind in place of the last one, versioning its segments against
	 * the body offered; while the kind rests, keep nothing.
	 * @param kind the kind, uncompressed
	 * @param body the new body; this object takes a reference of its own
	 * @param previous the body the rendering was offered, or {@code null}
	 */
	void rendered(BodyKind kind, PooledBody body, @Nullable KeptBody previous) {
		if (!this.enabled) {
			return;
		}
		synchronized (this) {
			KeptKind entry = this.kinds.get(kind);
			if (entry != null && entry.rests()) {
				entry.notKept();
				entry.renderedNanos = this.nanoClock.getAsLong();
				return;
			}
		}
		long[] versions = new long[body.segmentCount()];
		double share = this.segmentVersions.version(body, previous, versions);
		keep(kind, body, previous, false, versions, share);
	}

	/**
	 * Keep a new body of a kind in place of the one its rendering {@linkplain #take took}
	 * and versioned it against ({@link ReplacedBody}); while the kind rests, keep
	 * nothing.
	 * @param kind the kind, uncompressed
	 * @param body the new body; this object takes a reference of its own
	 * @param replaced the body taken, which the caller releases
	 * @param versions the version of each of the new body's segments
	 * @param share the share of its bytes in segments as they were in the one taken
	 */
	void replaced(BodyKind kind, PooledBody body, KeptBody replaced, long[] versions, double share) {
		if (this.enabled) {
			keep(kind, body, replaced, true, versions, share);
		}
	}

	private void keep(BodyKind kind, PooledBody body, @Nullable KeptBody previous, boolean taken, long[] versions,
			double share) {
		// Room for all that can be dropped here, so that adding to these lists, once
		// something is out of its entry, never allocates.
		List<KeptKind> dropped = new ArrayList<>(KeptKinds.MAX_KINDS + 1);
		List<KeptBody> plains = new ArrayList<>(2);
		List<KeptEncoding> forms = new ArrayList<>(CODINGS);
		// The body's reference is taken only where it is stored, after everything that
		// allocates: an OutOfMemoryError on the way leaves no reference behind.
		KeptBody plain = new KeptBody(body, versions, share);
		boolean copiesPay = previous != null && KeepCredit.copiedEnough(body);
		try {
			synchronized (this) {
				long now = this.nanoClock.getAsLong();
				this.kinds.expire(now, dropped);
				KeptKind entry = this.kinds.get(kind);
				if (entry != null) {
					entry.clearTaken();
				}
				if (entry != null && entry.rests()) {
					// Dropped for room (makeRoomFor) while this body was compared, and
					// resting since: this body is not kept.
					entry.notKept();
				}
				else if (entry == null) {
					entry = new KeptKind();
					entry.keep(plain);
					this.kinds.add(kind, entry, dropped);
					body.retain();
				}
				else {
					body.retain();
					entry.replaceBody(plain, previous, taken, copiesPay, plains, forms);
				}
				entry.renderedNanos = now;
			}
		}
		finally {
			// Expired or evicted kinds, the body replaced, and what a kind that rests
			// from now drops, go back even where an Error was thrown on the way.
			for (KeptBody each : plains) {
				each.release();
			}
			for (KeptEncoding form : forms) {
				form.release();
			}
			release(dropped);
		}
	}

	/**
	 * Compress a body, copying the compressed bytes of the segments unchanged since the
	 * last body of its kind in that coding ({@link KeptForms}). A body that is not the
	 * kept one of its kind (a newer one was rendered meanwhile, or reuse is off) is
	 * compressed whole.
	 * @param body the plain body
	 * @param kind the kind of the compressed body
	 * @param encoder the coding's encoder
	 * @param expectedSize the expected compressed size
	 * @return the compressed body, whose reference the caller owns
	 */
	public PooledBody encode(PooledBody body, BodyKind kind, BodyEncoder encoder, long expectedSize) {
		if (!this.enabled) {
			return encoder.encode(body, kind, expectedSize);
		}
		return this.forms.encode(body, kind, encoder, expectedSize);
	}

	/**
	 * Return what is kept for a kind, for {@link KeptForms} under this object's lock.
	 * @param kind the kind, uncompressed
	 * @return the kind's entry, or {@code null}
	 */
	@Nullable KeptKind entry(BodyKind kind) {
		return this.kinds.get(kind);
	}

	/**
	 * Drop what is kept for every kind but one, to make room for a rendering of that one:
	 * their bodies and compressed forms ({@link KeptKind#makeRoom}).
	 * @param kind the kind whose bodies stay
	 */
	void makeRoomFor(BodyKind kind) {
		// Room for all that can be dropped, so that adding to these lists never allocates
		// once something is out of its entry.
		List<KeptBody> plains = new ArrayList<>(KeptKinds.MAX_KINDS);
		List<KeptEncoding> forms = new ArrayList<>(KeptKinds.MAX_KINDS * CODINGS);
		try {
			synchronized (this) {
				this.kinds.makeRoomFor(kind, plains, forms);
			}
		}
		finally {
			for (KeptBody plain : plains) {
				plain.release();
			}
			for (KeptEncoding form : forms) {
				form.release();
			}
		}
	}

	/**
	 * Drop what is kept for every kind.
	 */
	public void forgetAll() {
		List<KeptKind> forgotten;
		synchronized (this) {
			forgotten = this.kinds.removeAll();
		}
		release(forgotten);
	}

	/**
	 * Return how many pooled chunks the kept bodies and forms hold, each counted once: a
	 * kind's plain body and its forms are bodies of their own. A body taken by the
	 * rendering that replaces it counts for what it still holds; one released meanwhile,
	 * for nothing.
	 * @return the chunks
	 */
	public synchronized long heldChunks() {
		return this.kinds.heldChunks();
	}

	/**
	 * Return how many kinds have a body kept.
	 * @return the kinds
	 */
	synchronized int keptKinds() {
		return this.kinds.withBody();
	}

	private static void release(List<KeptKind> entries) {
		for (KeptKind entry : entries) {
			entry.release();
		}
	}

	/**
	 * What a rendering is offered to copy from, besides a body it took.
	 *
	 * @param previous the kind's last body, not taken
	 * @param keeps whether the new body will be kept
	 */
	record Offer(@Nullable KeptBody previous, boolean keeps) {
	}

}
