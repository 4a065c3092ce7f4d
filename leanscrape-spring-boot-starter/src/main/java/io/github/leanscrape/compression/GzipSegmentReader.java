package io.github.leanscrape.compression;

import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * Tells whether a segment of a gzip body compressed segment by segment
 * ({@link GzipEncoder}) decodes to a range of a plain body, by inflating it: where the
 * plain body it was compressed from is no longer held, its compressed form stands in for
 * it, and the comparison stays exact. Each such segment is deflated from an empty history
 * and ends on a sync flush, so it inflates on its own. Inflating stops at the first
 * window that differs. Not thread-safe; {@linkplain #close() close} it to free the
 * inflater's native memory.
 *
 * @author leanscrape
 */
public final class GzipSegmentReader implements PooledBody.RangeSink, AutoCloseable {

	private final Inflater inflater = new Inflater(true);

	/**
	 * Small, so that a segment that changed is told from the old one after a few
	 * kilobytes inflated, not after the whole segment.
	 */
	private final byte[] window = new byte[4 * 1024];

	/** The plain body being compared with, while a segment is read. */
	private @Nullable PooledBody plain;

	/** Where in the plain body the next inflated byte should be. */
	private long position;

	/** Where the plain range ends. */
	private long end;

	private boolean differs;

	/**
	 * Return whether a segment of a gzip body decodes to exactly a range of a plain body.
	 * @param encoded the gzip body, compressed segment by segment
	 * @param segment the segment
	 * @param plain the plain body
	 * @param start where the range starts
	 * @param length its length
	 * @return {@code true} when the segment inflates to the range's bytes, no more and no
	 * fewer
	 */
	public boolean decodesTo(EncodedBody encoded, int segment, PooledBody plain, long start, long length) {
		this.inflater.reset();
		this.plain = plain;
		this.position = start;
		this.end = start + length;
		this.differs = false;
		try {
			encoded.writeSegment(segment, this);
		}
		finally {
			this.plain = null;
		}
		return !this.differs && this.position == this.end;
	}

	/**
	 * Inflate one chunk's part of the segment and compare what comes out.
	 */
	@Override
	public void write(byte[] bytes, int offset, int length) {
		PooledBody plain = this.plain;
		if (this.differs || plain == null) {
			// The rest of the segment cannot make it equal.
			return;
		}
		this.inflater.setInput(bytes, offset, length);
		try {
			while (true) {
				int n = this.inflater.inflate(this.window);
				if (n == 0) {
					// All input inflated, or a stream that is not one of our segments
					// (ended, or asking for a dictionary): the length check decides.
					if (this.inflater.needsInput() || this.inflater.finished() || this.inflater.needsDictionary()) {
						return;
					}
				}
				else if (n > this.end - this.position || !plain.rangeEquals(this.position, this.window, 0, n)) {
					this.differs = true;
					return;
				}
				this.position += n;
			}
		}
		catch (DataFormatException ex) {
			this.differs = true;
		}
	}

	@Override
	public void close() {
		this.inflater.end();
	}

}
