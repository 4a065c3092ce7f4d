package io.github.leanscrape.compression;

import java.nio.ByteBuffer;
import java.util.Objects;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * Compresses a {@link PooledBody} into Zstandard frames (RFC 8878) with zstd-jni, an
 * optional dependency: this class is only loaded when it is on the class path.
 *
 * @author leanscrape
 */
public final class ZstdEncoder extends ReusingEncoder {

	// zstd matches further back than deflate's 32 KiB, so a frame per segment costs it
	// more: about 12% in size and 30% in time when every segment is compressed.
	private static final double MIN_REUSED_SHARE = 0.3;

	/** Read only by the auto-configuration's tests, reflectively. */
	private final int level;

	/**
	 * Create a new encoder.
	 * @param pool the pool for the compressed chunks
	 * @param level the zstd level, from 1 (fastest) to 19 (smallest)
	 * @param framePerSegment whether a body may be a frame per segment, for unchanged
	 * segments to be copied (some decoders read only the first frame)
	 */
	public ZstdEncoder(ChunkPool pool, int level, boolean framePerSegment) {
		super(pool, ContentCoding.ZSTD, () -> new Compressor(level, pool.chunkSize()), framePerSegment,
				MIN_REUSED_SHARE);
		this.level = checkLevel("Zstandard", level, 19);
	}

	// A context with direct buffers for the native streaming API; a frame that ended
	// leaves it ready for the next. zstd-jni frees a context only when told to.
	private static final class Compressor implements ReusingEncoder.Compressor, PooledBody.RangeSink {

		private final ZstdCompressCtx context;

		private final ByteBuffer input;

		private final ByteBuffer output;

		private final byte[] window;

		private @Nullable ChunkedOutput segmentOutput;

		Compressor(int level, int chunkSize) {
			this.context = new ZstdCompressCtx();
			this.context.setLevel(level);
			this.input = ByteBuffer.allocateDirect(chunkSize);
			// The size zstd recommends for a streaming output buffer: a whole zstd block.
			int outputSize = (int) Zstd.compressBound(128 * 1024);
			this.output = ByteBuffer.allocateDirect(outputSize);
			this.window = new byte[outputSize];
		}

		@Override
		public void compressSegment(PooledBody body, long start, long length, ChunkedOutput out) {
			// Told the size, zstd sizes its tables for the segment and writes the size in
			// the frame's header; each segment is a frame of its own.
			this.context.setPledgedSrcSize(length);
			this.segmentOutput = out;
			try {
				body.writeRange(start, length, this);
			}
			finally {
				this.segmentOutput = null;
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

		@Override
		public void write(byte[] bytes, int offset, int length) {
			ChunkedOutput out = Objects.requireNonNull(this.segmentOutput);
			this.input.clear();
			this.input.put(bytes, offset, length);
			this.input.flip();
			while (this.input.hasRemaining()) {
				this.context.compressDirectByteBufferStream(this.output, this.input, EndDirective.CONTINUE);
				drain(out);
			}
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
		public void free() {
			this.context.close();
		}

	}

}
