package io.github.leanscrape.reuse;

import java.util.Arrays;

import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.SegmentObserver;
import org.jspecify.annotations.Nullable;

/**
 * A kept body read by the rendering that replaces it and given back to the pool behind
 * it, so that the two hold about one body rather than two: its chunks before the segments
 * still to be compared with go back, and any more than a sixteenth of it behind the
 * output. A block or segment whose bytes went back is written or versioned anew: never
 * wrong, only not reused. Only where the rendering holds the kept body's only reference.
 *
 * @author leanscrape
 */
final class ReplacedBody extends SegmentMatcher implements SegmentObserver {

	private final KeptBody replaced;

	private final PooledBody body;

	private final SegmentVersions segmentVersions;

	private final long slack;

	/** As many as the kept body's segments, and a few more before it grows. */
	private long[] versions;

	private int count;

	/** The output and range of the segment being versioned, while it is. */
	private @Nullable ChunkedOutput output;

	private long start;

	private long length;

	private long unchanged;

	/** Where the kept body's segments that later segments are compared with start. */
	private long needed;

	ReplacedBody(KeptBody replaced, SegmentVersions segmentVersions) {
		this.replaced = replaced;
		this.body = replaced.body;
		this.segmentVersions = segmentVersions;
		this.slack = slackBytes(this.body);
		this.versions = new long[this.body.segmentCount() + 8];
	}

	// How far behind the rendering the kept body is held at most: a sixteenth of it, and
	// a chunk for the one being read.
	private static long slackBytes(PooledBody body) {
		return body.length() / 16 + body.chunkSize();
	}

	// The chunks of a kept body that go back while the rendering writes as much.
	static long givenBackChunks(PooledBody body) {
		long slackChunks = slackBytes(body) / body.chunkSize() + 1;
		return Math.max(0, body.chunkCount() - slackChunks);
	}

	@Override
	public void segmentEnded(ChunkedOutput output, long start, long end) {
		version(output, start, end);
		int first = firstCandidate(this.count);
		this.needed = (first < this.body.segmentCount()) ? this.body.segmentStart(first) : this.body.length();
		this.body.releaseBefore(Math.max(this.needed, end - this.slack));
	}

	@Override
	public void chunkFilled(long size) {
		this.body.releaseBefore(Math.max(this.needed, size - this.slack));
	}

	// Once the output became a body, which tells the last segment.
	long[] versions() {
		if (this.count != this.versions.length) {
			this.versions = Arrays.copyOf(this.versions, this.count);
		}
		return this.versions;
	}

	double unchangedShare(long length) {
		return (length == 0) ? 1 : (double) this.unchanged / length;
	}

	private void version(ChunkedOutput output, long start, long end) {
		this.output = output;
		this.start = start;
		this.length = end - start;
		int match = find(this.count, this.replaced.versions.length);
		this.output = null;
		if (this.count == this.versions.length) {
			this.versions = Arrays.copyOf(this.versions, this.count * 2);
		}
		if (match >= 0) {
			this.versions[this.count++] = this.replaced.versions[match];
			this.unchanged += this.length;
		}
		else {
			this.versions[this.count++] = this.segmentVersions.newVersion();
		}
	}

	@Override
	boolean equal(int segment, int earlier) {
		ChunkedOutput output = this.output;
		long earlierStart = this.body.segmentStart(earlier);
		return output != null && this.body.segmentEnd(earlier) - earlierStart == this.length
				&& this.body.holds(earlierStart)
				&& output.rangeEquals(this.start, this.body, earlierStart, this.length);
	}

}
