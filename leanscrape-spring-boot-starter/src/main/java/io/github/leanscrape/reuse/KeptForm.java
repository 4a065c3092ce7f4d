package io.github.leanscrape.reuse;

import io.github.leanscrape.compression.EncodedBody;
import io.github.leanscrape.exposition.PooledBody;

/**
 * A kind's last form by segment in one coding, with the versions of the segments it
 * encodes: what the next body's unchanged segments are copied from.
 *
 * @param encoded the form
 * @param versions the version of each segment it encodes
 * @author leanscrape
 */
record KeptForm(EncodedBody encoded, long[] versions) {

	void release() {
		this.encoded.body().release();
	}

	// Notes in copyFrom the segment of this form that each of a kept body's segments can
	// copy, or -1; returns the share of the body's bytes that can be copied.
	double match(KeptBody plain, int[] copyFrom) {
		long[] lastVersions = this.versions;
		SegmentMatcher sameVersion = new SegmentMatcher() {

			@Override
			boolean equal(int segment, int earlier) {
				return plain.versions()[segment] == lastVersions[earlier];
			}

		};
		PooledBody body = plain.body();
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
