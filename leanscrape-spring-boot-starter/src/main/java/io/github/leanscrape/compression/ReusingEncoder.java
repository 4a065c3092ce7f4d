package io.github.leanscrape.compression;

import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * An encoder whose compressors are reused from scrape to scrape, and how a body goes
 * through one, whole or segment by segment: a small stack of idle compressors, enough for
 * the scrapes that compress at the same time. A compressor that fails, one given back
 * when the stack is full, and those idle when the encoder closes are freed at once: they
 * hold native memory (a deflater's, a zstd context's) that only they can give back. Each
 * content coding supplies its compressor.
 *
 * @author leanscrape
 */
abstract class ReusingEncoder implements BodyEncoder, AutoCloseable {

	private static final int MAX_IDLE = 4;

	private final ChunkPool pool;

	private final ContentCoding coding;

	private final Supplier<Compressor> factory;

	private final double minReusedShare;

	private final boolean compressesSegments;

	/**
	 * A stack: the slots below {@link #idleCount} hold idle compressors, the others none.
	 */
	private final @Nullable Compressor[] idle = new Compressor[MAX_IDLE];

	private int idleCount;

	private boolean closed;

	private final LongAdder segmentsCompressed = new LongAdder();

	private final LongAdder segmentsReused = new LongAdder();

	/**
	 * Create an encoder.
	 * @param pool the pool for the compressed chunks
	 * @param coding the content coding of its bodies
	 * @param factory makes a compressor when none is idle
	 * @param compressesSegments whether bodies may be compressed segment by segment
	 * @param minReusedShare the least share of a body in reusable segments for
	 * compressing it segment by segment to pay
	 */
	ReusingEncoder(ChunkPool pool, ContentCoding coding, Supplier<Compressor> factory, boolean compressesSegments,
			double minReusedShare) {
		this.pool = pool;
		this.coding = coding;
		this.factory = factory;
		this.compressesSegments = compressesSegments;
		this.minReusedShare = minReusedShare;
	}

	@Override
	public final ContentCoding coding() {
		return this.coding;
	}

	@Override
	public final double minReusedShare() {
		return this.minReusedShare;
	}

	@Override
	public final boolean compressesSegments() {
		return this.compressesSegments;
	}

	/**
	 * Compress a body with an idle compressor, or a new one: whole, or segment by
	 * segment, copying the compressed bytes of the segments {@code copyFrom} names from
	 * {@code previous}. The input is not released, nor {@code previous}.
	 */
	@Override
	public final EncodedBody encode(PooledBody body, BodyKind kind, long expectedSize, boolean segmented,
			@Nullable EncodedBody previous, int @Nullable [] copyFrom) {
		boolean whole = !segmented || !this.compressesSegments;
		int parts = whole ? 1 : body.segmentCount();
		ChunkedOutput out = new ChunkedOutput(this.pool, kind, expectedSize);
		Compressor compressor = null;
		int reused = 0;
		long[] encodedEnds;
		long encodedStart;
		PooledBody encoded;
		try {
			compressor = take();
			encodedEnds = new long[parts];
			compressor.begin(out);
			encodedStart = out.size();
			for (int i = 0; i < parts; i++) {
				int from = (whole || previous == null || copyFrom == null) ? -1 : copyFrom[i];
				if (from >= 0 && previous != null) {
					previous.writeSegment(from, out);
					reused++;
				}
				else {
					long start = whole ? 0 : body.segmentStart(i);
					long length = (whole ? body.length() : body.segmentEnd(i)) - start;
					compressor.compressSegment(body, start, length, out);
				}
				encodedEnds[i] = out.size();
			}
			compressor.finish(body, out);
			encoded = out.toBody();
		}
		catch (RuntimeException | Error ex) {
			out.discard();
			if (compressor != null) {
				compressor.free();
			}
			throw ex;
		}
		give(Objects.requireNonNull(compressor));
		this.segmentsReused.add(reused);
		this.segmentsCompressed.add(parts - reused);
		return new EncodedBody(encoded, encodedStart, whole ? null : encodedEnds);
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

}
