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
 * Compresses a {@link PooledBody} into Zstandard frames (RFC 8878), also of pooled
 * chunks, with zstd-jni: an optional dependency, so this class is only loaded when it is
 * on the class path. Each chunk goes through direct buffers for the native streaming API.
 * Compression contexts are reused from a small stack, as {@link GzipEncoder} reuses its
 * deflaters, and freed when the encoder is closed (zstd-jni frees one only when told to).
 *
 * @author leanscrape
 */
public final class ZstdEncoder extends ReusingEncoder {

	/**
	 * The least share of a body in reusable segments for compressing it a frame per
	 * segment. zstd finds matches much further back than deflate's 32 KiB, so a frame per
	 * segment costs it more than a gzip segment costs gzip: about 12% in size and 30% in
	 * time when every segment is compressed.
	 */
	private static final double MIN_REUSED_SHARE = 0.3;

	private final int level;

	/**
	 * Create a new encoder that compresses every body as one frame.
	 * @param pool the pool for the compressed chunks
	 * @param level the zstd level, from 1 (fastest) to 19 (smallest)
	 */
	public ZstdEncoder(ChunkPool pool, int level) {
		this(pool, level, false);
	}

	/**
	 * Create a new encoder.
	 * @param pool the pool for the compressed chunks
	 * @param level the zstd level, from 1 (fastest) to 19 (smallest)
	 * @param framePerSegment whether a body may be sent as a frame per segment, so that
	 * unchanged segments are sent compressed as they were: RFC 8878 allows several
	 * frames, but some decoders read only the first
	 */
	public ZstdEncoder(ChunkPool pool, int level, boolean framePerSegment) {
		super(pool, ContentCoding.ZSTD, () -> new Compressor(level, pool.chunkSize()), framePerSegment,
				MIN_REUSED_SHARE);
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
	private static final class Compressor implements ReusingEncoder.Compressor, PooledBody.RangeSink {

		private final ZstdCompressCtx context;

		private final ByteBuffer input;

		private final ByteBuffer output;

		private final byte[] window;

		/** Where the segment being compressed goes, while it is. */
		private @Nullable ChunkedOutput segmentOutput;

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
		public void begin(ChunkedOutput out) {
			// Each segment is a frame of its own.
		}

		/**
		 * Compress a segment as one frame: frames one after another decode to their
		 * contents one after another (RFC 8878), so a segment's frame can be copied into
		 * a later body as it is.
		 */
		@Override
		public void compressSegment(PooledBody body, long start, long length, ChunkedOutput out) {
			// Told the size, zstd sizes its window and tables for the segment rather than
			// for an input of unknown length, and writes the size in the frame's header.
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

		/**
		 * Compress the segment's bytes of one chunk, through the direct input buffer (one
		 * chunk long).
		 */
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

		@Override
		public void finish(PooledBody body, ChunkedOutput out) {
			// The last segment's frame ends the body.
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
