package io.github.leanscrape.reuse;

import java.util.concurrent.atomic.AtomicLong;

import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * Gives each segment of a new body a version (equal versions, equal bytes), and finds
 * each segment's match in an earlier form by version.
 *
 * @author leanscrape
 */
final class SegmentVersions {

	/** Never reused: equal versions are equal bytes. */
	private final AtomicLong versions = new AtomicLong();

	// Each segment's version is that of the last body's segment with the same bytes, or
	// a new one; returns the share of the body's bytes unchanged, or -1 without a last.
	double version(PooledBody body, @Nullable KeptBody last, long[] versions) {
		if (last == null) {
			for (int i = 0; i < versions.length; i++) {
				versions[i] = newVersion();
			}
			return -1;
		}
		PooledBody lastBody = last.body;
		SegmentMatcher sameBytes = new SegmentMatcher() {

			@Override
			boolean equal(int segment, int earlier) {
				long start = body.segmentStart(segment);
				long length = body.segmentEnd(segment) - start;
				long earlierStart = lastBody.segmentStart(earlier);
				return lastBody.segmentEnd(earlier) - earlierStart == length
						&& body.rangeEquals(start, lastBody, earlierStart, length);
			}

		};
		long unchanged = 0;
		for (int i = 0; i < versions.length; i++) {
			int match = sameBytes.find(i, last.versions.length);
			versions[i] = (match >= 0) ? last.versions[match] : newVersion();
			if (match >= 0) {
				unchanged += body.segmentEnd(i) - body.segmentStart(i);
			}
		}
		return (body.length() == 0) ? 1 : (double) unchanged / body.length();
	}

	long newVersion() {
		return this.versions.incrementAndGet();
	}

	// Notes in copyFrom the earlier form's segment to copy, or -1; returns the share of
	// the body's bytes that can be copied.
	static double match(long[] versions, long[] lastVersions, PooledBody body, int[] copyFrom) {
		SegmentMatcher sameVersion = new SegmentMatcher() {

			@Override
			boolean equal(int segment, int earlier) {
				return versions[segment] == lastVersions[earlier];
			}

		};
		long reusable = 0;
		for (int i = 0; i < copyFrom.length; i++) {
			copyFrom[i] = sameVersion.find(i, lastVersions.length);
			if (copyFrom[i] >= 0) {
				reusable += body.segmentEnd(i) - body.segmentStart(i);
			}
		}
		return (body.length() == 0) ? 1 : (double) reusable / body.length();
	}

}
