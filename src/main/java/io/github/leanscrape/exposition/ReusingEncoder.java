package io.github.leanscrape.exposition;

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

	private final ChunkPool pool;

	private final ContentCoding coding;

	private final Supplier<Compressor> factory;

	/**
	 * A stack: the slots below {@link #idleCount} hold idle compressors, the others none.
	 */
	private final @Nullable Compressor[] idle = new Compressor[MAX_IDLE];

	private int idleCount;

	private boolean closed;

	/**
	 * Create an encoder.
	 * @param pool the pool for the compressed chunks
	 * @param coding the content coding of its bodies
	 * @param factory makes a compressor when none is idle
	 */
	ReusingEncoder(ChunkPool pool, ContentCoding coding, Supplier<Compressor> factory) {
		this.pool = pool;
		this.coding = coding;
		this.factory = factory;
	}

	@Override
	public final ContentCoding coding() {
		return this.coding;
	}

	/**
	 * Compress a body with an idle compressor, or a new one. The input is not released.
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
		try {
			compressor.compress(body, out);
			PooledBody encoded = out.toBody();
			give(compressor);
			return encoded;
		}
		catch (RuntimeException | Error ex) {
			out.discard();
			compressor.free();
			throw ex;
		}
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
	 * A compressor that writes a whole compressed stream for a body, and can start again.
	 */
	interface Compressor {

		/**
		 * Write the compressed stream of a body.
		 * @param body the body
		 * @param out where the stream goes
		 */
		void compress(PooledBody body, ChunkedOutput out);

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
