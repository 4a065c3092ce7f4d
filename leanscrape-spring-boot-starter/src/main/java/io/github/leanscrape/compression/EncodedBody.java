package io.github.leanscrape.compression;

import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * A compressed body, with where each segment's compressed bytes lie so that a later body
 * can copy them. Holds one reference to the compressed body, which its holder releases.
 *
 * @param body the compressed body
 * @param start where the first segment's compressed bytes start, after any header
 * @param ends where each segment's compressed bytes end; {@code null} if compressed whole
 * @author leanscrape
 */
public record EncodedBody(PooledBody body, long start, long @Nullable [] ends) {

	void writeSegment(int index, PooledBody.RangeSink out) {
		long[] ends = this.ends;
		if (ends == null) {
			throw new IllegalStateException("The body was compressed whole");
		}
		long from = (index == 0) ? this.start : ends[index - 1];
		this.body.writeRange(from, ends[index] - from, out);
	}

}
