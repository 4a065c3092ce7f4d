package io.github.leanscrape.reuse;

import io.github.leanscrape.exposition.PooledBody;

/**
 * A kept plain body with the version of each of its segments, and the share of its bytes
 * in segments that were as they were in the body before it.
 *
 * @author leanscrape
 */
final class KeptBody implements SegmentVersions.Reference {

	final PooledBody body;

	final long[] versions;

	/** From 0 to 1, or -1 when there was no body before it. */
	final double unchangedShare;

	/**
	 * Whether keeping the body was worth it: a coding compressed it by segment, or the
	 * next rendering copied enough of it. Guarded by the {@link KeptBodies}.
	 */
	boolean used;

	KeptBody(PooledBody body, long[] versions, double unchangedShare) {
		this.body = body;
		this.versions = versions;
		this.unchangedShare = unchangedShare;
	}

	/**
	 * Drop the reference to the body that this plain body's holder took.
	 */
	void release() {
		this.body.release();
	}

	@Override
	public long[] versions() {
		return this.versions;
	}

	@Override
	public long segmentLength(int segment) {
		return this.body.segmentEnd(segment) - this.body.segmentStart(segment);
	}

	@Override
	public boolean holds(int segment, PooledBody other, long start, long length) {
		return other.rangeEquals(start, this.body, this.body.segmentStart(segment), length);
	}

}
