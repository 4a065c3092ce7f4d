package io.github.leanscrape.exposition;

import java.nio.ByteBuffer;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;

/**
 * Compresses a {@link PooledBody} into a Zstandard frame (RFC 8878), also of pooled
 * chunks, with zstd-jni (the zstd library's own code, through JNI): an optional
 * dependency, so this class is only loaded when it is on the class path.
 * <p>
 * The native streaming API reads and writes direct buffers: each chunk is copied into one
 * and the frame out of another, a small cost beside compressing it. Compression contexts,
 * which hold the native window and tables, are reused from a small stack, as
 * {@link GzipEncoder} reuses its deflaters, and freed when the encoder is closed
 * (zstd-jni frees a context only when told to).
 *
 * @author leanscrape
 */
public final class ZstdEncoder extends ReusingEncoder {

	private final int level;

	/**
	 * Create a new encoder.
	 * @param pool the pool for the compressed chunks
	 * @param level the zstd level, from 1 (fastest) to 19 (smallest)
	 */
	public ZstdEncoder(ChunkPool pool, int level) {
		super(pool, ContentCoding.ZSTD, () -> new Compressor(level, pool.chunkSize()));
		this.level = checkLevel(level);
	}

	private static int checkLevel(int level) {
		if (level < 1 || level > 19) {
			throw new IllegalArgumentException("Zstandard level must be between 1 and 19, not " + level);
		}
		return level;
	}

	/**
	 * A reusable compression context with its direct input and output buffers. A frame
	 * that ended leaves the context ready for the next one.
	 */
	private static final class Compressor implements ReusingEncoder.Compressor {

		private final ZstdCompressCtx context;

		private final ByteBuffer input;

		private final ByteBuffer output;

		private final byte[] window;

		Compressor(int level, int chunkSize) {
			this.context = new ZstdCompressCtx();
			this.context.setLevel(level);
			this.input = ByteBuffer.allocateDirect(chunkSize);
			// The size zstd recommends for a streaming output buffer: a whole block.
			int outputSize = (int) Zstd.compressBound(128 * 1024);
			this.output = ByteBuffer.allocateDirect(outputSize);
			this.window = new byte[outputSize];
		}

		@Override
		public void compress(PooledBody body, ChunkedOutput out) {
			for (int i = 0; i < body.chunkCount(); i++) {
				this.input.clear();
				this.input.put(body.chunk(i), 0, body.chunkLength(i));
				this.input.flip();
				while (this.input.hasRemaining()) {
					this.context.compressDirectByteBufferStream(this.output, this.input, EndDirective.CONTINUE);
					drain(out);
				}
			}
			this.input.clear();
			this.input.flip();
			boolean flushed;
			do {
				flushed = this.context.compressDirectByteBufferStream(this.output, this.input, EndDirective.END);
				drain(out);
			}
			while (!flushed);
		}

		private void drain(ChunkedOutput out) {
			this.output.flip();
			int length = this.output.remaining();
			if (length > 0) {
				this.output.get(this.window, 0, length);
				out.write(this.window, 0, length);
			}
			this.output.clear();
		}

		@Override
		public void reset() {
			// A frame that ended leaves the context ready for the next one.
		}

		@Override
		public void free() {
			this.context.close();
		}

	}

}
