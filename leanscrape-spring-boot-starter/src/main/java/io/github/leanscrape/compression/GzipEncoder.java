package io.github.leanscrape.compression;

import java.util.Objects;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * Compresses a {@link PooledBody} into a gzip body, also of pooled chunks.
 * <p>
 * {@link java.util.zip.GZIPOutputStream} makes a new {@link Deflater} (and its native
 * memory) per stream and cannot be handed one; this class writes the gzip header and
 * trailer (RFC 1952) itself around a raw deflate stream so that deflaters are reused
 * ({@link ReusingEncoder}).
 *
 * @author leanscrape
 */
public final class GzipEncoder extends ReusingEncoder {

	private static final byte[] HEADER = { 0x1f, (byte) 0x8b, Deflater.DEFLATED, 0, 0, 0, 0, 0, 0, 0 };

	/**
	 * A final block with fixed codes and nothing in it (BFINAL 1, BTYPE 01, end of
	 * block), as zlib ends a stream that was flushed: it ends the segments' deflate
	 * stream.
	 */
	private static final byte[] FINAL_EMPTY_BLOCK = { 0x03, 0x00 };

	private final int level;

	/**
	 * The least share of a body in reusable segments for compressing it segment by
	 * segment: a segment deflated from an empty history costs about 2% in size and little
	 * time, so a tenth reused already pays.
	 */
	private static final double MIN_REUSED_SHARE = 0.1;

	/**
	 * Create a new encoder.
	 * @param pool the pool for the compressed chunks
	 * @param level the deflate level, 1 (fastest) to 9 (smallest)
	 */
	public GzipEncoder(ChunkPool pool, int level) {
		super(pool, ContentCoding.GZIP, () -> new Compressor(level), true, MIN_REUSED_SHARE);
		this.level = checkLevel(level);
	}

	private static int checkLevel(int level) {
		if (level < Deflater.BEST_SPEED || level > Deflater.BEST_COMPRESSION) {
			throw new IllegalArgumentException("Compression level must be between 1 and 9, not " + level);
		}
		return level;
	}

	/**
	 * A reusable deflater, checksum and output window.
	 */
	private static final class Compressor implements ReusingEncoder.Compressor, PooledBody.RangeSink {

		private final Deflater deflater;

		private final CRC32 crc = new CRC32();

		private final byte[] window = new byte[16 * 1024];

		/** Where the segment being compressed goes, while it is. */
		private @Nullable ChunkedOutput segmentOutput;

		Compressor(int level) {
			this.deflater = new Deflater(level, true);
		}

		@Override
		public void begin(ChunkedOutput out) {
			out.write(HEADER, 0, HEADER.length);
		}

		/**
		 * Deflate a segment from an empty history and end it with a sync flush (an empty
		 * stored block), so that it ends on a byte boundary and the next segment's blocks
		 * may follow it, whether compressed now or copied from an earlier stream. No
		 * block is final: {@link #finish} ends the stream.
		 */
		@Override
		public void compressSegment(PooledBody body, long start, long length, ChunkedOutput out) {
			this.deflater.reset();
			this.segmentOutput = out;
			try {
				body.writeRange(start, length, this);
			}
			finally {
				this.segmentOutput = null;
			}
			// A sync flush that fills the window may have more to write.
			while (drain(out, Deflater.SYNC_FLUSH) == this.window.length) {
				// drained
			}
		}

		/**
		 * Deflate the segment's bytes of one chunk.
		 */
		@Override
		public void write(byte[] bytes, int offset, int length) {
			ChunkedOutput out = Objects.requireNonNull(this.segmentOutput);
			this.deflater.setInput(bytes, offset, length);
			while (!this.deflater.needsInput()) {
				drain(out, Deflater.NO_FLUSH);
			}
		}

		/**
		 * End the stream with an empty final block, then the trailer: the CRC-32 and
		 * length of the whole body (RFC 1952).
		 */
		@Override
		public void finish(PooledBody body, ChunkedOutput out) {
			out.write(FINAL_EMPTY_BLOCK, 0, FINAL_EMPTY_BLOCK.length);
			for (int i = 0; i < body.chunkCount(); i++) {
				this.crc.update(body.chunk(i), 0, body.chunkLength(i));
			}
			writeIntLittleEndian(out, (int) this.crc.getValue());
			writeIntLittleEndian(out, (int) body.length());
		}

		private int drain(ChunkedOutput out, int flush) {
			int n = this.deflater.deflate(this.window, 0, this.window.length, flush);
			if (n > 0) {
				out.write(this.window, 0, n);
			}
			return n;
		}

		private static void writeIntLittleEndian(ChunkedOutput out, int value) {
			out.write(value & 0xFF);
			out.write((value >>> 8) & 0xFF);
			out.write((value >>> 16) & 0xFF);
			out.write((value >>> 24) & 0xFF);
		}

		@Override
		public void reset() {
			this.deflater.reset();
			this.crc.reset();
		}

		@Override
		public void free() {
			this.deflater.end();
		}

	}

}
