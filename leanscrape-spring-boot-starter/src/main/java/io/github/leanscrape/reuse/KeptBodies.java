package io.github.leanscrape.reuse;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;

import io.github.leanscrape.compression.BodyEncoder;
import io.github.leanscrape.compression.EncodedBody;
import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.PooledBodyRenderer;
import io.github.leanscrape.exposition.RenderInputs;
import org.jspecify.annotations.Nullable;

/**
 * The one owner of what is kept between scrapes (docs/design.md): a {@link KeptKind} per
 * kind, with its forms by segment ({@link KeptForm}). Every holding changes under this
 * object's lock; what leaves it is released outside the lock.
 *
 * @author leanscrape
 */
public final class KeptBodies {

	private static final int CODINGS = ContentCoding.values().length;

	private final boolean enabled;

	/** Never reused: equal versions are equal bytes. */
	private final AtomicLong versions = new AtomicLong();

	/** Guarded by this. */
	private final KeptKinds kinds = new KeptKinds();

	private final LongSupplier nanoClock;

	/**
	 * Create the kept bodies.
	 * @param enabled whether to keep anything
	 */
	public KeptBodies(boolean enabled) {
		this(enabled, System::nanoTime);
	}

	KeptBodies(boolean enabled, LongSupplier nanoClock) {
		this.enabled = enabled;
		this.nanoClock = nanoClock;
	}

	/**
	 * Open the lease of one rendering of a kind, which the caller closes in every case.
	 * @param kind the kind, uncompressed
	 * @return the lease
	 */
	public RenderLease lease(BodyKind kind) {
		return new RenderLease(kind, take(kind));
	}

	/**
	 * Compress a body, copying the segments unchanged since the kind's last form in that
	 * coding; a body that is not its kind's kept one is compressed whole.
	 * @param body the plain body
	 * @param kind the kind of the compressed body
	 * @param encoder the coding's encoder
	 * @param expectedSize the expected compressed size
	 * @return the compressed body, whose reference the caller owns
	 */
	public PooledBody encode(PooledBody body, BodyKind kind, BodyEncoder encoder, long expectedSize) {
		int slot = encoder.coding().ordinal();
		KeptBody plain = null;
		KeptForm last = null;
		if (this.enabled) {
			synchronized (this) {
				KeptKind keptKind = this.kinds.get(body.kind());
				KeptBody kept = (keptKind != null) ? keptKind.body() : null;
				if (keptKind != null && kept != null && kept.body() == body) {
					plain = kept;
					last = keptKind.formsByCoding[slot];
					if (last != null && !last.encoded().body().tryRetain()) {
						last = null;
					}
				}
			}
		}
		if (plain == null) {
			return encoder.encode(body, kind, expectedSize, false, null, null).body();
		}
		EncodedBody encoded;
		@Nullable KeptForm next;
		try {
			int[] copyFrom = null;
			double share;
			if (last != null) {
				copyFrom = new int[plain.versions().length];
				share = last.match(plain, copyFrom);
			}
			else {
				// Nothing to copy from in this coding: by segment where enough of the
				// body is as it was, so that the next body can copy.
				share = plain.unchangedShare();
			}
			boolean segmented = encoder.compressesSegments() && share >= encoder.minReusedShare();
			encoded = encoder.encode(body, kind, expectedSize, segmented, (last != null) ? last.encoded() : null,
					segmented ? copyFrom : null);
			try {
				next = segmented ? new KeptForm(encoded, plain.versions()) : null;
			}
			catch (RuntimeException | Error ex) {
				// The caller never gets the compressed body: give it back.
				encoded.body().release();
				throw ex;
			}
			if (segmented) {
				// The kept form's reference, taken once nothing is left to allocate.
				encoded.body().retain();
			}
		}
		finally {
			if (last != null) {
				last.release();
			}
		}
		KeptForm replaced;
		synchronized (this) {
			KeptKind keptKind = this.kinds.get(body.kind());
			// Not where the kind's body was dropped meanwhile: nothing would give the
			// form back. A newer body may copy it (equal versions are equal bytes).
			if (keptKind != null && keptKind.body() != null) {
				replaced = keptKind.formsByCoding[slot];
				keptKind.formsByCoding[slot] = next;
			}
			else {
				replaced = next;
			}
		}
		if (replaced != null) {
			replaced.release();
		}
		return encoded.body();
	}

	/**
	 * Give back what is kept, for a rendering of a kind that waits for memory.
	 * @param kind the kind of the rendering
	 * @param what how much to give back
	 */
	public void shed(BodyKind kind, Shed what) {
		switch (what) {
			case OTHER_KINDS -> makeRoomFor(kind);
			case EVERYTHING -> forgetAll();
		}
	}

	/**
	 * Drop everything kept, for every kind.
	 */
	public void forgetAll() {
		List<KeptKind> forgotten;
		synchronized (this) {
			forgotten = this.kinds.removeAll();
		}
		release(forgotten);
	}

	/**
	 * Return how many pooled chunks the kept and taken bodies and the forms hold.
	 * @return the chunks
	 */
	public synchronized long heldChunks() {
		return this.kinds.heldChunks();
	}

	synchronized int keptKinds() {
		return this.kinds.withBody();
	}

	// The kind's kept body to copy from, with a reference the caller releases.
	@Nullable KeptBody previous(BodyKind kind) {
		return keptBody(kind, false);
	}

	// The kind's kept body, taken where this object holds its only reference.
	@Nullable KeptBody take(BodyKind kind) {
		return keptBody(kind, true);
	}

	private @Nullable KeptBody keptBody(BodyKind kind, boolean take) {
		if (!this.enabled) {
			return null;
		}
		List<KeptKind> expired = new ArrayList<>(0);
		KeptBody plain = null;
		synchronized (this) {
			this.kinds.expire(this.nanoClock.getAsLong(), expired);
			KeptKind keptKind = this.kinds.get(kind);
			KeptBody kept = (keptKind != null) ? keptKind.body() : null;
			if (keptKind != null && kept != null) {
				if (!take && kept.body().tryRetain()) {
					plain = kept;
				}
				else if (take && kept.body().isOnlyReference()) {
					// No scrape reads it (a scrape holds a reference of its own) and none
					// can from now: a reference to a kept body is taken only here, under
					// this lock, and only from a BODY holding.
					keptKind.take();
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

	// A body taken and not read is kept again where it is whole, else released.
	void giveBack(BodyKind kind, KeptBody plain) {
		synchronized (this) {
			KeptKind keptKind = this.kinds.get(kind);
			if (keptKind != null && keptKind.endTaken(plain.body()) && !plain.body().isReleased()
					&& plain.body().holds(0)) {
				keptKind.keep(plain);
				return;
			}
		}
		plain.release();
	}

	// Keep a new body (with a reference of this object's own), its segments versioned
	// against the body it was compared with.
	void keep(BodyKind kind, PooledBody body, SegmentComparison comparison) {
		// Called only where enabled. Room for all that can be dropped, so that adding
		// to these lists never allocates.
		List<KeptKind> dropped = new ArrayList<>(KeptKinds.MAX_KINDS + 1);
		KeptBody replaced = null;
		// The body's reference is taken only where it is stored, after all that
		// allocates: an OutOfMemoryError on the way leaves no reference behind.
		KeptBody plain = new KeptBody(body, comparison.versions(), comparison.unchangedShare(body.length()));
		try {
			synchronized (this) {
				long now = this.nanoClock.getAsLong();
				this.kinds.expire(now, dropped);
				KeptKind keptKind = this.kinds.get(kind);
				if (keptKind == null) {
					keptKind = new KeptKind();
					keptKind.keep(plain);
					this.kinds.add(kind, keptKind, dropped);
					body.retain();
				}
				else {
					keptKind.clearTaken();
					body.retain();
					replaced = keptKind.keep(plain);
				}
				keptKind.renderedNanos = now;
			}
		}
		finally {
			// Released even where an Error was thrown on the way.
			if (replaced != null) {
				replaced.release();
			}
			release(dropped);
		}
	}

	// Drops the bodies and forms of every kind but this one; the lists have room for all.
	void makeRoomFor(BodyKind kind) {
		List<KeptBody> plains = new ArrayList<>(KeptKinds.MAX_KINDS);
		List<KeptForm> forms = new ArrayList<>(KeptKinds.MAX_KINDS * CODINGS);
		try {
			synchronized (this) {
				this.kinds.makeRoomFor(kind, plains, forms);
			}
		}
		finally {
			for (KeptBody plain : plains) {
				plain.release();
			}
			for (KeptForm form : forms) {
				form.release();
			}
		}
	}

	private static void release(List<KeptKind> kinds) {
		for (KeptKind keptKind : kinds) {
			keptKind.release();
		}
	}

	/** One rendering's lease: {@link #render} once admitted, {@link #close()} always. */
	public final class RenderLease implements AutoCloseable {

		private final BodyKind kind;

		/** The kind's body, taken for this rendering alone. */
		private @Nullable KeptBody taken;

		/** The kind's body offered to copy from, where none was taken. */
		private @Nullable KeptBody previous;

		/** Versions the new body as it is written; null without reuse. */
		private @Nullable SegmentComparison comparison;

		/** The new body, rendered and not yet kept. */
		private @Nullable PooledBody uncommitted;

		private boolean started;

		private RenderLease(BodyKind kind, @Nullable KeptBody taken) {
			this.kind = kind;
			this.taken = taken;
		}

		/**
		 * Return how many chunks the body this rendering took holds.
		 * @return the chunks, {@code 0} where it took none
		 */
		public long takenChunks() {
			KeptBody taken = this.taken;
			return (taken != null && !taken.body().isReleased()) ? taken.body().chunkCount() : 0;
		}

		/**
		 * Return how many chunks this rendering gives back as it goes, which it may leave
		 * out of what it reserves.
		 * @return the chunks, {@code 0} where it took none
		 */
		public long chunksGivenBackAsItGoes() {
			KeptBody taken = this.taken;
			long chunks = takenChunks();
			return (taken != null && chunks > 0)
					? Math.max(0, chunks - (SegmentComparison.maxLagBytes(taken.body()) / taken.body().chunkSize() + 1))
					: 0;
		}

		/**
		 * Give the body taken back to the pool before the rendering starts: the last way
		 * to make room for it.
		 */
		public void giveBackTakenBody() {
			if (this.started) {
				throw new IllegalStateException("The rendering has started");
			}
			KeptBody taken = this.taken;
			if (taken != null) {
				taken.release();
			}
		}

		/**
		 * Render the kind's new body, copying from what this lease offers, and keep it in
		 * place of the last one.
		 * @param <T> what holds the body
		 * @param renderer the renderer
		 * @param holder makes what holds the body, taking over its reference
		 * @return what holds the new body, whose reference the caller owns
		 */
		public <T> T render(PooledBodyRenderer renderer, Function<PooledBody, T> holder) {
			RenderInputs inputs = start();
			PooledBody body = renderer.render(this.kind, inputs, this.comparison);
			// Released on close until the holder has it, if keeping it fails.
			this.uncommitted = body;
			SegmentComparison comparison = this.comparison;
			if (comparison != null) {
				keep(this.kind, body, comparison);
			}
			T held = holder.apply(body);
			this.uncommitted = null;
			return held;
		}

		// The renderer's inputs, valid until the lease is closed.
		RenderInputs start() {
			if (this.started) {
				throw new IllegalStateException("Started already");
			}
			this.started = true;
			KeptBody taken = this.taken;
			if (taken != null && !taken.body().isReleased()) {
				this.comparison = new SegmentComparison(taken, true, KeptBodies.this.versions);
				return new RenderInputs(taken.body(), true);
			}
			if (!KeptBodies.this.enabled) {
				return RenderInputs.NONE;
			}
			KeptBody previous = previous(this.kind);
			this.previous = previous;
			this.comparison = new SegmentComparison(previous, false, KeptBodies.this.versions);
			return new RenderInputs((previous != null) ? previous.body() : null, true);
		}

		@Override
		public void close() {
			KeptBody taken = this.taken;
			KeptBody previous = this.previous;
			PooledBody uncommitted = this.uncommitted;
			this.taken = null;
			this.previous = null;
			this.uncommitted = null;
			// Each released even where another's release throws.
			try {
				if (uncommitted != null) {
					uncommitted.release();
				}
			}
			finally {
				try {
					if (taken != null && this.started) {
						taken.release();
					}
					else if (taken != null) {
						giveBack(this.kind, taken);
					}
				}
				finally {
					if (previous != null) {
						previous.release();
					}
				}
			}
		}

	}

}
