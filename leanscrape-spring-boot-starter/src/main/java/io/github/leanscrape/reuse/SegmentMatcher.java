package io.github.leanscrape.reuse;

/**
 * Finds, for each segment of a new body in order, the segment of an earlier body that it
 * equals, within {@value #SEARCH_WINDOW} segments of where the last match puts it, the
 * expected one first. "Equals" is the subclass's: the same bytes, or the same version.
 *
 * @author leanscrape
 */
abstract class SegmentMatcher {

	/** How many segments on either side of the expected one are compared. */
	static final int SEARCH_WINDOW = 8;

	private static final int CANDIDATES = 2 * SEARCH_WINDOW + 1;

	/** Where the earlier body's segments are, relative to the new one's. */
	private int shift;

	// The earlier segment a new one (each in order from the first) equals, or -1; the
	// next new one is expected after it.
	final int find(int segment, int earlierCount) {
		int expected = segment + this.shift;
		for (int d = 0; d < CANDIDATES; d++) {
			int earlier = expected + (((d & 1) == 0) ? -(d >> 1) : (d + 1) >> 1);
			if (earlier >= 0 && earlier < earlierCount && equal(segment, earlier)) {
				this.shift = earlier - segment;
				return earlier;
			}
		}
		return -1;
	}

	// The first earlier segment a new one may be compared with: those before it are not
	// needed again.
	final int firstCandidate(int segment) {
		return Math.max(0, segment + this.shift - SEARCH_WINDOW);
	}

	abstract boolean equal(int segment, int earlier);

}
