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
	 * How many of a body's segments, one after another, are compressed as one unit: the
	 * unit is what is reused or compressed again.
	 */
	private final int segmentsPerUnit;

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
		this(pool, coding, factory, reuseSegments, 1);
	}

	/**
	 * Create an encoder that compresses runs of segments as one unit.
	 * @param pool the pool for the compressed chunks
	 * @param coding the content coding of its bodies
	 * @param factory makes a compressor when none is idle
	 * @param reuseSegments whether to keep each kind's last body and its compressed form
	 * to send unchanged units compressed as they were
	 * @param segmentsPerUnit how many segments, one after another, make a unit: more for
	 * a coding that loses more size by starting afresh
	 */
	ReusingEncoder(ChunkPool pool, ContentCoding coding, Supplier<Compressor> factory, boolean reuseSegments,
			int segmentsPerUnit) {
		this.pool = pool;
		this.reuseSegments = reuseSegments;
		this.segmentsPerUnit = segmentsPerUnit;
		this.coding = coding;
		this.factory = factory;
	}

	@Override
	public final ContentCoding coding() {
		return this.coding;
	}

	/**
	 * Compress a body with an idle compressor, or a new one, unit by unit (a run of
	 * segments): a unit whose bytes are those of the same unit of the last body of the
	 * same kind is copied compressed as it was then, the others are compressed. The input
	 * is not released.
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
		// Without reuse, the body is one unit: cutting it would only cost size.
		int segments = body.segmentCount();
		int units = this.reuseSegments ? unitCount(segments) : 1;
		long[] encodedEnds = new long[units];
		long encodedStart;
		int reused = 0;
		PooledBody encoded;
		try {
			compressor.begin(out);
			encodedStart = out.size();
			for (int i = 0; i < units; i++) {
				long start = this.reuseSegments ? unitStart(body, i) : 0;
				long length = (this.reuseSegments ? unitEnd(body, i) : body.length()) - start;
				if (previous != null && previous.matches(i, body, start, length)) {
					previous.writeEncoded(i, out);
					reused += segmentsIn(i, segments);
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
		// Without reuse, the body was compressed as one segment.
		this.segmentsCompressed.add((this.reuseSegments ? segments : 1) - reused);
		if (this.reuseSegments) {
			keep(new KeptSegments(this, body.retain(), encoded.retain(), encodedStart, encodedEnds));
		}
		return encoded;
	}

	private int unitCount(int segments) {
		return (segments + this.segmentsPerUnit - 1) / this.segmentsPerUnit;
	}

	private long unitStart(PooledBody body, int unit) {
		return body.segmentStart(unit * this.segmentsPerUnit);
	}

	private long unitEnd(PooledBody body, int unit) {
		return body.segmentEnd(Math.min(body.segmentCount(), (unit + 1) * this.segmentsPerUnit) - 1);
	}

	private int segmentsIn(int unit, int segments) {
		return Math.min(segments, (unit + 1) * this.segmentsPerUnit) - unit * this.segmentsPerUnit;
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
	 * Give back the chunks of the bodies kept to compare the next ones with; the next
	 * body of each kind is compressed whole.
	 */
	@Override
	public final void forgetSegments() {
		List<KeptSegments> forgotten;
		synchronized (this) {
			forgotten = new ArrayList<>(this.kept.values());
			this.kept.clear();
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
		 * Compress one unit (a run of segments) on its own.
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

		private final ReusingEncoder encoder;

		private final PooledBody plain;

		private final PooledBody encoded;

		private final long encodedStart;

		private final long[] encodedEnds;

		KeptSegments(ReusingEncoder encoder, PooledBody plain, PooledBody encoded, long encodedStart,
				long[] encodedEnds) {
			this.encoder = encoder;
			this.plain = plain;
			this.encoded = encoded;
			this.encodedStart = encodedStart;
			this.encodedEnds = encodedEnds;
		}

		/**
		 * Return whether a unit of a new body holds exactly the bytes of the same unit of
		 * the kept one: compared byte for byte, never by a hash alone.
		 * @param index the unit
		 * @param body the new body
		 * @param start where the unit starts in the new body
		 * @param length its length in the new body
		 * @return {@code true} when its compressed bytes may be copied
		 */
		boolean matches(int index, PooledBody body, long start, long length) {
			if (index >= this.encodedEnds.length) {
				return false;
			}
			long keptStart = this.encoder.unitStart(this.plain, index);
			// Where the unit starts may have moved (an earlier one changed length): its
			// bytes are what must be equal, and its compressed form is theirs alone.
			return this.encoder.unitEnd(this.plain, index) - keptStart == length
					&& body.rangeEquals(start, this.plain, keptStart, length);
		}

		void writeEncoded(int index, ChunkedOutput out) {
			long start = (index == 0) ? this.encodedStart : this.encodedEnds[index - 1];
			this.encoded.writeRange(start, this.encodedEnds[index] - start, out);
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
