package io.github.leanscrape.exposition;

import java.util.zip.CRC32;
import java.util.zip.Deflater;

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

	private final int level;

	/**
	 * Create a new encoder.
	 * @param pool the pool for the compressed chunks
	 * @param level the deflate level, 1 (fastest) to 9 (smallest)
	 */
	public GzipEncoder(ChunkPool pool, int level) {
		super(pool, ContentCoding.GZIP, () -> new Compressor(level));
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
	private static final class Compressor implements ReusingEncoder.Compressor {

		private final Deflater deflater;

		private final CRC32 crc = new CRC32();

		private final byte[] window = new byte[16 * 1024];

		Compressor(int level) {
			this.deflater = new Deflater(level, true);
		}

		@Override
		public void compress(PooledBody body, ChunkedOutput out) {
			out.write(HEADER, 0, HEADER.length);
			for (int i = 0; i < body.chunkCount(); i++) {
				byte[] chunk = body.chunk(i);
				int length = body.chunkLength(i);
				this.crc.update(chunk, 0, length);
				this.deflater.setInput(chunk, 0, length);
				while (!this.deflater.needsInput()) {
					drain(out);
				}
			}
			this.deflater.finish();
			while (!this.deflater.finished()) {
				drain(out);
			}
			writeIntLittleEndian(out, (int) this.crc.getValue());
			writeIntLittleEndian(out, (int) body.length());
		}

		private void drain(ChunkedOutput out) {
			int n = this.deflater.deflate(this.window, 0, this.window.length, Deflater.NO_FLUSH);
			if (n > 0) {
				out.write(this.window, 0, n);
			}
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
