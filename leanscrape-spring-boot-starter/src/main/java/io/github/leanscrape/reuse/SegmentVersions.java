package io.github.leanscrape.reuse;

import java.util.concurrent.atomic.AtomicLong;

import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * Gives each segment of a new body a version, equal versions meaning equal bytes: that of
 * the last body's segment with the same bytes, looked for around where it was
 * ({@link SegmentMatcher}), or a new one; and finds, for each segment of a body, the
 * segment of an earlier compressed form with its version.
 *
 * @author leanscrape
 */
final class SegmentVersions {

	/** Versions are never reused: equal versions are equal bytes. */
	private final AtomicLong versions = new AtomicLong();

	/**
	 * Give each segment of a body a version.
	 * @param body the body
	 * @param last the last body of its kind, or {@code null}
	 * @param versions where the version of each of the body's segments goes
	 * @return the share of the body's bytes in segments as they were in the last body,
	 * from 0 to 1, or -1 when there is no last body
	 */
	double version(PooledBody body, @Nullable KeptBody last, long[] versions) {
		int segments = versions.length;
		if (last == null) {
			for (int i = 0; i < segments; i++) {
				versions[i] = newVersion();
			}
			return -1;
		}
		long[] lastVersions = last.versions;
		SegmentMatcher sameBytes = new SegmentMatcher() {

			@Override
			boolean equal(int segment, int earlier) {
				long start = body.segmentStart(segment);
				long length = body.segmentEnd(segment) - start;
				return last.segmentLength(earlier) == length && last.holds(earlier, body, start, length);
			}

		};
		long unchanged = 0;
		for (int i = 0; i < segments; i++) {
			int match = sameBytes.find(i, lastVersions.length);
			if (match >= 0) {
				versions[i] = lastVersions[match];
				unchanged += body.segmentEnd(i) - body.segmentStart(i);
			}
			else {
				versions[i] = newVersion();
			}
		}
		return (body.length() == 0) ? 1 : (double) unchanged / body.length();
	}

	/**
	 * Return a version no segment had before.
	 * @return the version
	 */
	long newVersion() {
		return this.versions.incrementAndGet();
	}

	/**
	 * Find, for each segment of a body, the segment of an earlier compressed form with
	 * the same version.
	 * @param versions the versions of the body's segments
	 * @param lastVersions the versions of the segments the earlier form encodes
	 * @param body the body
	 * @param copyFrom where to note, for each segment, the one to copy or {@code -1}
	 * @return the share of the body's bytes that can be copied
	 */
	static double match(long[] versions, long[] lastVersions, PooledBody body, int[] copyFrom) {
		SegmentMatcher sameVersion = new SegmentMatcher() {

			@Override
			boolean equal(int segment, int earlier) {
				return versions[segment] == lastVersions[earlier];
			}

		};
		long reusable = 0;
		for (int i = 0; i < copyFrom.length; i++) {
			int match = sameVersion.find(i, lastVersions.length);
			copyFrom[i] = match;
			if (match >= 0) {
				reusable += body.segmentEnd(i) - body.segmentStart(i);
			}
		}
		return (body.length() == 0) ? 1 : (double) reusable / body.length();
	}

}
