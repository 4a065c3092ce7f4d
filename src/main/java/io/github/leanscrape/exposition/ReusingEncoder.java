package io.github.leanscrape.exposition;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * An encoder whose compressors are reused from scrape to scrape, and how a body goes
 * through one: a small stack of idle compressors, enough for the scrapes that compress at
 * the same time. A compressor that fails, one given back when the stack is full, and
 * those idle when the encoder closes are freed at once: they hold native memory (a
 * deflater's, a zstd context's) that only they can give back. Each content coding
 * supplies its compressor.
 *
 * @author leanscrape
 */
abstract class ReusingEncoder implements BodyEncoder, AutoCloseable {

	private static final int MAX_IDLE = 4;

	/**
	 * The most kinds of body (format, name filter) whose last body is kept at once.
	 */
	private static final int MAX_KEPT_KINDS = 4;

	private final ChunkPool pool;

	private final ContentCoding coding;

	private final Supplier<Compressor> factory;

	/**
	 * A stack: the slots below {@link #idleCount} hold idle compressors, the others none.
	 */
	private final @Nullable Compressor[] idle = new Compressor[MAX_IDLE];

	private int idleCount;

	private boolean closed;

	private final boolean reuseSegments;

	/**
	 * The least share of a body's bytes, as they were in the last body of its kind, for
	 * the body to be compressed segment by segment; below it, the body is compressed
	 * whole.
	 */
	private final double minUnchangedShare;

	/**
	 * The last body of each kind with its compressed form, while reuse is on, least
	 * recently kept first; guarded by this encoder's lock.
	 */
	private final Map<BodyKind, KeptSegments> kept = new LinkedHashMap<>();

	private final LongAdder segmentsCompressed = new LongAdder();

	private final LongAdder segmentsReused = new LongAdder();

	/**
	 * Create an encoder.
	 * @param pool the pool for the compressed chunks
	 * @param coding the content coding of its bodies
	 * @param factory makes a compressor when none is idle
	 * @param reuseSegments whether to keep each kind's last body and its compressed form
	 * to send unchanged segments compressed as they were
	 */
	ReusingEncoder(ChunkPool pool, ContentCoding coding, Supplier<Compressor> factory, boolean reuseSegments) {
		this(pool, coding, factory, reuseSegments, 0);
	}

	/**
	 * Create an encoder that compresses a body whole when little of it would be reused.
	 * @param pool the pool for the compressed chunks
	 * @param coding the content coding of its bodies
	 * @param factory makes a compressor when none is idle
	 * @param reuseSegments whether to keep each kind's last body and its compressed form
	 * to send unchanged segments compressed as they were
	 * @param minUnchangedShare the least share of a body's bytes, as they were in the
	 * last body of its kind, for the body to be compressed segment by segment rather than
	 * whole: more than zero for a coding that loses time or size by cutting a body
	 */
	ReusingEncoder(ChunkPool pool, ContentCoding coding, Supplier<Compressor> factory, boolean reuseSegments,
			double minUnchangedShare) {
		this.minUnchangedShare = minUnchangedShare;
		this.pool = pool;
		this.reuseSegments = reuseSegments;
		this.coding = coding;
		this.factory = factory;
	}

	@Override
	public final ContentCoding coding() {
		return this.coding;
	}

	/**
	 * Compress a body with an idle compressor, or a new one, segment by segment: a
	 * segment whose bytes are those of the same segment of the last body of the same kind
	 * is copied compressed as it was then, the others are compressed. When less than
	 * {@link #minUnchangedShare} of the body is as it was, the body is compressed whole
	 * instead, and kept to be compared with the next. The input is not released.
	 */
	@Override
	public final PooledBody encode(PooledBody body, BodyKind kind, long expectedSize) {
		ChunkedOutput out = new ChunkedOutput(this.pool, kind, expectedSize);
		Compressor compressor;
		try {
			compressor = take();
		}
		catch (RuntimeException | Error ex) {
			out.discard();
			throw ex;
		}
		// Taken out while this compression uses it: another compression of the same kind
		// at the same time finds none and compresses every segment.
		KeptSegments previous = takeKept(body.kind());
		int segments = body.segmentCount();
		boolean[] unchanged = (previous != null) ? previous.unchangedSegments(body) : null;
		// Without reuse, or when too little would be reused, the body is compressed as
		// one segment: cutting it would only cost size, and for some codings time.
		boolean whole = !this.reuseSegments
				|| (unchanged != null && unchangedShare(body, unchanged) < this.minUnchangedShare);
		int parts = whole ? 1 : segments;
		long[] encodedEnds = new long[parts];
		long encodedStart;
		int reused = 0;
		PooledBody encoded;
		try {
			compressor.begin(out);
			encodedStart = out.size();
			for (int i = 0; i < parts; i++) {
				long start = whole ? 0 : body.segmentStart(i);
				long length = (whole ? body.length() : body.segmentEnd(i)) - start;
				if (!whole && previous != null && unchanged != null && unchanged[i] && previous.reusable()) {
					previous.writeEncoded(i, out);
					reused++;
				}
				else {
					compressor.compressSegment(body, start, length, out);
				}
				encodedEnds[i] = out.size();
			}
			compressor.finish(body, out);
			encoded = out.toBody();
		}
		catch (RuntimeException | Error ex) {
			out.discard();
			compressor.free();
			throw ex;
		}
		finally {
			if (previous != null) {
				previous.release();
			}
		}
		give(compressor);
		this.segmentsReused.add(reused);
		// A body compressed whole counts as one segment.
		this.segmentsCompressed.add((whole ? 1 : segments) - reused);
		if (this.reuseSegments) {
			keep(new KeptSegments(body.retain(), encoded.retain(), encodedStart, whole ? null : encodedEnds));
		}
		return encoded;
	}

	/**
	 * Return the share of a body's bytes in segments that are as they were.
	 * @param body the body
	 * @param unchanged which segments are as they were
	 * @return the share, from 0 to 1; 1 for an empty body
	 */
	private double unchangedShare(PooledBody body, boolean[] unchanged) {
		if (body.length() == 0) {
			return 1;
		}
		long bytes = 0;
		for (int i = 0; i < unchanged.length; i++) {
			if (unchanged[i]) {
				bytes += body.segmentEnd(i) - body.segmentStart(i);
			}
		}
		return (double) bytes / body.length();
	}

	@Override
	public final @Nullable PooledBody lastBody(BodyKind kind) {
		synchronized (this) {
			KeptSegments kept = this.kept.get(kind);
			return (kept != null && kept.plain.tryRetain()) ? kept.plain : null;
		}
	}

	private @Nullable KeptSegments takeKept(BodyKind kind) {
		synchronized (this) {
			return this.kept.remove(kind);
		}
	}

	/**
	 * Keep a body and its compressed form for the next body of its kind, in place of the
	 * last one; beyond {@link #MAX_KEPT_KINDS}, the kind used least recently is dropped.
	 * @param kept what to keep, whose references this encoder now owns
	 */
	private void keep(KeptSegments kept) {
		KeptSegments replaced = null;
		KeptSegments evicted = null;
		synchronized (this) {
			if (this.closed) {
				replaced = kept;
			}
			else {
				replaced = this.kept.put(kept.kind(), kept);
				if (this.kept.size() > MAX_KEPT_KINDS) {
					// Each name filter is a kind of its own: a scraper asking for many
					// would otherwise have a body kept for each.
					Iterator<KeptSegments> eldest = this.kept.values().iterator();
					evicted = eldest.next();
					eldest.remove();
				}
			}
		}
		if (replaced != null) {
			replaced.release();
		}
		if (evicted != null) {
			evicted.release();
		}
	}

	/**
	 * Give back the chunks of the bodies kept to compare the next ones with, but one
	 * kind's; the next body of each other kind is compressed whole.
	 */
	@Override
	public final void forgetSegmentsExcept(@Nullable BodyKind kind) {
		List<KeptSegments> forgotten = new ArrayList<>();
		synchronized (this) {
			Iterator<KeptSegments> kept = this.kept.values().iterator();
			while (kept.hasNext()) {
				KeptSegments segments = kept.next();
				if (!segments.kind().equals(kind)) {
					forgotten.add(segments);
					kept.remove();
				}
			}
		}
		for (KeptSegments kept : forgotten) {
			kept.release();
		}
	}

	@Override
	public final void keptBodies(Consumer<PooledBody> action) {
		List<PooledBody> bodies = new ArrayList<>();
		synchronized (this) {
			for (KeptSegments kept : this.kept.values()) {
				bodies.add(kept.plain);
			}
		}
		for (PooledBody body : bodies) {
			action.accept(body);
		}
	}

	@Override
	public final long segmentsCompressed() {
		return this.segmentsCompressed.sum();
	}

	@Override
	public final long segmentsReused() {
		return this.segmentsReused.sum();
	}

	private Compressor take() {
		synchronized (this) {
			if (this.idleCount > 0) {
				Compressor compressor = this.idle[--this.idleCount];
				this.idle[this.idleCount] = null;
				if (compressor != null) {
					return compressor;
				}
			}
		}
		return this.factory.get();
	}

	private void give(Compressor compressor) {
		compressor.reset();
		synchronized (this) {
			if (!this.closed && this.idleCount < MAX_IDLE) {
				this.idle[this.idleCount++] = compressor;
				return;
			}
		}
		compressor.free();
	}

	/**
	 * Free the idle compressors' native memory now rather than when (if ever) they are
	 * collected; those in use are freed when they are given back.
	 */
	@Override
	public final void close() {
		@Nullable Compressor[] idle = new Compressor[MAX_IDLE];
		synchronized (this) {
			this.closed = true;
			for (int i = 0; i < this.idleCount; i++) {
				idle[i] = this.idle[i];
				this.idle[i] = null;
			}
			this.idleCount = 0;
		}
		for (Compressor compressor : idle) {
			if (compressor != null) {
				compressor.free();
			}
		}
		forgetSegments();
	}

	/**
	 * A compressor that writes a compressed stream for a body segment by segment, each
	 * segment compressed on its own (from an empty history, ending on a byte boundary),
	 * so that a segment's compressed bytes depend on its bytes alone and can be copied
	 * into a later stream; and can start again.
	 */
	interface Compressor {

		/**
		 * Write what the stream starts with.
		 * @param out where the stream goes
		 */
		void begin(ChunkedOutput out);

		/**
		 * Compress one segment on its own.
		 * @param body the body
		 * @param start where the segment starts
		 * @param length its length
		 * @param out where the stream goes
		 */
		void compressSegment(PooledBody body, long start, long length, ChunkedOutput out);

		/**
		 * Write what the stream ends with.
		 * @param body the whole body
		 * @param out where the stream goes
		 */
		void finish(PooledBody body, ChunkedOutput out);

		/**
		 * Get ready for the next body.
		 */
		void reset();

		/**
		 * Give back what the compressor holds; it is not used again.
		 */
		void free();

	}

	/**
	 * The last body of a kind and its compressed stream, with where each segment's
	 * compressed bytes are in it. Holds a reference to both bodies until released.
	 */
	private static final class KeptSegments {

		private final PooledBody plain;

		private final PooledBody encoded;

		private final long encodedStart;

		/**
		 * Where each segment's compressed bytes end, or {@code null} when the body was
		 * compressed whole: kept only to be compared with the next.
		 */
		private final long @Nullable [] encodedEnds;

		KeptSegments(PooledBody plain, PooledBody encoded, long encodedStart, long @Nullable [] encodedEnds) {
			this.plain = plain;
			this.encoded = encoded;
			this.encodedStart = encodedStart;
			this.encodedEnds = encodedEnds;
		}

		/**
		 * Return which segments of a new body hold exactly the bytes of the same segment
		 * of the kept one: compared byte for byte, never by a hash alone.
		 * @param body the new body
		 * @return for each segment of the new body, whether it is as it was
		 */
		boolean[] unchangedSegments(PooledBody body) {
			int segments = body.segmentCount();
			boolean[] unchanged = new boolean[segments];
			for (int i = 0; i < Math.min(segments, this.plain.segmentCount()); i++) {
				long start = body.segmentStart(i);
				long length = body.segmentEnd(i) - start;
				long keptStart = this.plain.segmentStart(i);
				// Where the segment starts may have moved (an earlier one changed
				// length):
				// its bytes are what must be equal, and its compressed form is theirs
				// alone.
				unchanged[i] = this.plain.segmentEnd(i) - keptStart == length
						&& body.rangeEquals(start, this.plain, keptStart, length);
			}
			return unchanged;
		}

		/**
		 * Return whether each segment's compressed bytes are kept, to be copied.
		 * @return {@code false} when the body was compressed whole
		 */
		boolean reusable() {
			return this.encodedEnds != null;
		}

		void writeEncoded(int index, ChunkedOutput out) {
			long[] ends = this.encodedEnds;
			if (ends == null) {
				throw new IllegalStateException("The kept body was compressed whole");
			}
			long start = (index == 0) ? this.encodedStart : ends[index - 1];
			this.encoded.writeRange(start, ends[index] - start, out);
		}

		BodyKind kind() {
			return this.plain.kind();
		}

		void release() {
			this.plain.release();
			this.encoded.release();
		}

	}

}
