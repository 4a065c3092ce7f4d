package io.github.leanscrape.serve;

import java.util.Arrays;

import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.SegmentObserver;

/**
 * The kept body of a kind, read by the rendering that replaces it and given back to the
 * pool as that rendering goes past it, so that the two hold about one body rather than
 * two: a kind keeps its body beside another kind's within the memory limit. Each new
 * segment gets its version as it ends, compared with the kept body's segments around the
 * expected one ({@link SegmentVersions}); then the kept body's chunks before the window
 * that later segments are compared with are given back, and in any case those more than
 * {@link #slackBytes(PooledBody) a sixteenth of the body} behind the rendering. A block
 * or segment whose bytes went back is written, or versioned, anew: never wrong, only not
 * reused. Used only where the rendering holds the kept body's only reference.
 *
 * @author leanscrape
 */
final class ReplacedBody implements SegmentObserver {

	private final KeptBody replaced;

	private final PooledBody body;

	private final SegmentVersions segmentVersions;

	private final long slack;

	/** Sized for as many segments as the kept body's, a few more before it grows. */
	private long[] versions;

	private int count;

	/** Where the kept body's segments are, relative to the new one's. */
	private int shift;

	private long unchanged;

	/** Where the kept body's segments that later segments are compared with start. */
	private long needed;

	/**
	 * Read a kept body whose only reference the caller hands over.
	 * @param replaced the kept body
	 * @param segmentVersions where new versions come from
	 */
	ReplacedBody(KeptBody replaced, SegmentVersions segmentVersions) {
		this.replaced = replaced;
		this.body = replaced.body;
		this.segmentVersions = segmentVersions;
		this.slack = slackBytes(this.body);
		this.versions = new long[this.body.segmentCount() + 8];
	}

	/**
	 * Return how far behind the rendering the kept body is held at most: a sixteenth of
	 * it, and a chunk for the one being read.
	 * @param body the kept body
	 * @return the bytes
	 */
	static long slackBytes(PooledBody body) {
		return body.length() / 16 + body.chunkSize();
	}

	/**
	 * Return how many chunks of a kept body go back to the pool while the rendering that
	 * replaces it writes as much: what a rendering can leave out of what it reserves.
	 * @param body the kept body
	 * @return the chunks
	 */
	static long givenBackChunks(PooledBody body) {
		long slackChunks = slackBytes(body) / body.chunkSize() + 1;
		return Math.max(0, body.chunkCount() - slackChunks);
	}

	@Override
	public void segmentEnded(ChunkedOutput output, long start, long end) {
		version(output, start, end);
		int first = Math.max(0, this.count + this.shift - SegmentVersions.SEARCH_WINDOW);
		this.needed = (first < this.body.segmentCount()) ? this.body.segmentStart(first) : this.body.length();
		this.body.releaseBefore(Math.max(this.needed, end - this.slack));
	}

	@Override
	public void chunkFilled(long size) {
		this.body.releaseBefore(Math.max(this.needed, size - this.slack));
	}

	/**
	 * Version the last segment, which ends with the output.
	 * @param output the output, written to its end
	 */
	void finish(ChunkedOutput output) {
		long last = output.lastSegmentEnd();
		if (this.count == 0 || last < output.size()) {
			version(output, last, output.size());
		}
		if (this.count != this.versions.length) {
			this.versions = Arrays.copyOf(this.versions, this.count);
		}
	}

	/**
	 * Return every segment's version, once {@linkplain #finish finished}.
	 * @return the version of each segment of the body the output became
	 */
	long[] versions() {
		return this.versions;
	}

	/**
	 * Return the share of the new body's bytes in segments as they were in the kept one.
	 * @param length the new body's length
	 * @return from 0 to 1
	 */
	double unchangedShare(long length) {
		return (length == 0) ? 1 : (double) this.unchanged / length;
	}

	private void version(ChunkedOutput output, long start, long end) {
		long length = end - start;
		long[] lastVersions = this.replaced.versions;
		int i = this.count;
		int match = -1;
		for (int d = 0; d < SegmentVersions.CANDIDATES && match < 0; d++) {
			int j = SegmentVersions.candidate(i + this.shift, d);
			if (j >= 0 && j < lastVersions.length && this.body.segmentEnd(j) - this.body.segmentStart(j) == length
					&& this.body.holds(this.body.segmentStart(j))
					&& output.rangeEquals(start, this.body, this.body.segmentStart(j), length)) {
				match = j;
			}
		}
		if (this.count == this.versions.length) {
			this.versions = Arrays.copyOf(this.versions, this.count * 2);
		}
		if (match >= 0) {
			this.versions[this.count++] = lastVersions[match];
			this.unchanged += length;
			this.shift = match - i;
		}
		else {
			this.versions[this.count++] = this.segmentVersions.newVersion();
		}
	}

}
