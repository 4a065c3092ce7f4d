package io.github.leanscrape.compression;

import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * A compressed body, with where each segment's compressed bytes lie so that a later body
 * can copy them. Holds one reference to the compressed body, which its holder releases.
 *
 * @author leanscrape
 */
public final class EncodedBody {

	private final PooledBody body;

	private final long start;

	/** Where each segment's compressed bytes end; {@code null} if compressed whole. */
	private final long @Nullable [] ends;

	EncodedBody(PooledBody body, long start, long @Nullable [] ends) {
		this.body = body;
		this.start = start;
		this.ends = ends;
	}

	/**
	 * Return the compressed body; the reference stays this object's.
	 * @return the body
	 */
	public PooledBody body() {
		return this.body;
	}

	void writeSegment(int index, PooledBody.RangeSink out) {
		long[] ends = this.ends;
		if (ends == null) {
			throw new IllegalStateException("The body was compressed whole");
		}
		long from = (index == 0) ? this.start : ends[index - 1];
		this.body.writeRange(from, ends[index] - from, out);
	}

}
