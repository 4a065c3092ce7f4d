package io.github.leanscrape.compression;

import java.util.Arrays;
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
 * An encoder that holds a few idle compressors from scrape to scrape. One that fails, is
 * given back to a full stack, or is idle at close is freed at once: only it can give back
 * its native memory (a deflater's, a zstd context's).
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

	/** A stack: the slots below {@link #idleCount} hold idle compressors. */
	private final @Nullable Compressor[] idle = new Compressor[MAX_IDLE];

	private int idleCount;

	private boolean closed;

	private final LongAdder segmentsCompressed = new LongAdder();

	private final LongAdder segmentsReused = new LongAdder();

	ReusingEncoder(ChunkPool pool, ContentCoding coding, Supplier<Compressor> factory, boolean compressesSegments,
			double minReusedShare) {
		this.pool = pool;
		this.coding = coding;
		this.factory = factory;
		this.compressesSegments = compressesSegments;
		this.minReusedShare = minReusedShare;
	}

	static int checkLevel(String name, int level, int max) {
		if (level < 1 || level > max) {
			throw new IllegalArgumentException(name + " level must be between 1 and " + max + ", not " + level);
		}
		return level;
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

	@Override
	public final EncodedBody encode(PooledBody body, BodyKind kind, long expectedSize, boolean segmented,
			@Nullable EncodedBody previous, int @Nullable [] copyFrom) {
		boolean whole = !segmented || !this.compressesSegments;
		int parts = whole ? 1 : body.segmentCount();
		long[] encodedEnds = new long[parts];
		ChunkedOutput out = new ChunkedOutput(this.pool, kind, expectedSize);
		Compressor compressor = null;
		int reused = 0;
		long encodedStart;
		PooledBody encoded;
		try {
			compressor = take();
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
				Compressor compressor = Objects.requireNonNull(this.idle[--this.idleCount]);
				this.idle[this.idleCount] = null;
				return compressor;
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

	/** Free the idle compressors' native memory now; those in use, when given back. */
	@Override
	public final void close() {
		@Nullable Compressor[] idle;
		synchronized (this) {
			this.closed = true;
			idle = Arrays.copyOf(this.idle, this.idleCount);
			Arrays.fill(this.idle, null);
			this.idleCount = 0;
		}
		for (Compressor compressor : idle) {
			if (compressor != null) {
				compressor.free();
			}
		}
	}

	/**
	 * Compresses each segment of a body from an empty history, ending on a byte boundary,
	 * so that a later form can copy its bytes. The defaults write and reset nothing.
	 */
	interface Compressor {

		default void begin(ChunkedOutput out) {
		}

		void compressSegment(PooledBody body, long start, long length, ChunkedOutput out);

		default void finish(PooledBody body, ChunkedOutput out) {
		}

		default void reset() {
		}

		/** Give back what the compressor holds; it is not used again. */
		void free();

	}

}
