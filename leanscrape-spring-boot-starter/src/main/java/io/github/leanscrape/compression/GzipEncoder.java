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
 * Compresses a {@link PooledBody} into gzip. Writes the RFC 1952 header and trailer
 * itself, since {@link java.util.zip.GZIPOutputStream} cannot reuse a {@link Deflater}.
 *
 * @author leanscrape
 */
public final class GzipEncoder extends ReusingEncoder {

	private static final byte[] HEADER = { 0x1f, (byte) 0x8b, Deflater.DEFLATED, 0, 0, 0, 0, 0, 0, 0 };

	// zlib's end of a flushed stream: an empty final deflate block (BFINAL 1, BTYPE 01).
	private static final byte[] FINAL_EMPTY_BLOCK = { 0x03, 0x00 };

	/** A segment deflated from an empty history costs about 2%: a tenth reused pays. */
	private static final double MIN_REUSED_SHARE = 0.1;

	/** Read only by the auto-configuration's tests, reflectively. */
	private final int level;

	/**
	 * Create a new encoder.
	 * @param pool the pool for the compressed chunks
	 * @param level the deflate level, 1 (fastest) to 9 (smallest)
	 */
	public GzipEncoder(ChunkPool pool, int level) {
		super(pool, ContentCoding.GZIP, () -> new Compressor(level), true, MIN_REUSED_SHARE);
		this.level = checkLevel("Compression", level, Deflater.BEST_COMPRESSION);
	}

	private static final class Compressor implements ReusingEncoder.Compressor, PooledBody.RangeSink {

		private final Deflater deflater;

		private final CRC32 crc = new CRC32();

		private final byte[] window = new byte[16 * 1024];

		private @Nullable ChunkedOutput segmentOutput;

		Compressor(int level) {
			this.deflater = new Deflater(level, true);
		}

		@Override
		public void begin(ChunkedOutput out) {
			out.write(HEADER, 0, HEADER.length);
		}

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
			// A sync flush (not final) ends the segment on a byte boundary, so that the
			// next, compressed or copied, may follow; one that fills the window has more.
			while (drain(out, Deflater.SYNC_FLUSH) == this.window.length) {
				// drained
			}
		}

		@Override
		public void write(byte[] bytes, int offset, int length) {
			ChunkedOutput out = Objects.requireNonNull(this.segmentOutput);
			this.deflater.setInput(bytes, offset, length);
			while (!this.deflater.needsInput()) {
				drain(out, Deflater.NO_FLUSH);
			}
		}

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
