package io.github.leanscrape.reuse;

import io.github.leanscrape.exposition.PooledBody;

/**
 * A kept plain body with the version of each of its segments, and the share of its bytes
 * in segments that were as they were in the body before it.
 *
 * @author leanscrape
 */
final class KeptBody {

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

	/**
	 * Return how long one of this body's segments is.
	 * @param segment the segment
	 * @return its length in bytes
	 */
	long segmentLength(int segment) {
		return this.body.segmentEnd(segment) - this.body.segmentStart(segment);
	}

	/**
	 * Return whether one of this body's segments holds exactly a range of another body.
	 * @param segment the segment, as long as the range
	 * @param other the other body
	 * @param start where the range starts
	 * @param length its length
	 * @return {@code true} when the bytes are equal
	 */
	boolean holds(int segment, PooledBody other, long start, long length) {
		return other.rangeEquals(start, this.body, this.body.segmentStart(segment), length);
	}

}
