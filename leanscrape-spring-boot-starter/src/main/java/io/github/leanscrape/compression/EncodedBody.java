package io.github.leanscrape.compression;

import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * A body in a content coding with where the compressed bytes of each segment of the plain
 * body lie in it, so that a later body can copy the compressed form of a segment whose
 * bytes did not change. Holds one reference to the compressed body until
 * {@linkplain #release() released}.
 *
 * @author leanscrape
 */
public final class EncodedBody {

	private final PooledBody body;

	private final long start;

	/**
	 * Where each segment's compressed bytes end, or {@code null} when the plain body was
	 * compressed whole.
	 */
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

	/**
	 * Give the compressed bytes of a segment to a sink: an output, which copies them, or
	 * a reader that decompresses them.
	 * @param index the segment
	 * @param out where they go
	 */
	void writeSegment(int index, PooledBody.RangeSink out) {
		long[] ends = this.ends;
		if (ends == null) {
			throw new IllegalStateException("The body was compressed whole");
		}
		long from = (index == 0) ? this.start : ends[index - 1];
		this.body.writeRange(from, ends[index] - from, out);
	}

	/**
	 * Add a reference to the compressed body, for a reader of it.
	 * @return this
	 */
	public EncodedBody retain() {
		this.body.retain();
		return this;
	}

	/**
	 * Add a reference if the compressed body is still live.
	 * @return {@code true} when a reference was added
	 */
	public boolean tryRetain() {
		return this.body.tryRetain();
	}

	/**
	 * Drop a reference to the compressed body.
	 */
	public void release() {
		this.body.release();
	}

}
