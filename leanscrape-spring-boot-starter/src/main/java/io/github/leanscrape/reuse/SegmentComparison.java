package io.github.leanscrape.reuse;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.SegmentObserver;
import org.jspecify.annotations.Nullable;

/**
 * Versions each segment of a new body as it ends, against the kept body of its kind;
 * where the lease took that body, gives its chunks back behind the output, so that the
 * two hold one body (docs/design.md, step 7). One per rendering, made by its lease.
 *
 * @author leanscrape
 */
final class SegmentComparison extends SegmentMatcher implements SegmentObserver {

	private static final long[] NO_VERSIONS = {};

	/** Never reused: equal versions are equal bytes. */
	private final AtomicLong versionCounter;

	private final @Nullable KeptBody kept;

	/** Whether the lease took the kept body: its chunks go back as the output grows. */
	private final boolean taken;

	private final long[] keptVersions;

	private final long maxLag;

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

	SegmentComparison(@Nullable KeptBody kept, boolean taken, AtomicLong versionCounter) {
		this.kept = kept;
		this.taken = taken;
		this.versionCounter = versionCounter;
		this.keptVersions = (kept != null) ? kept.versions() : NO_VERSIONS;
		this.maxLag = (kept != null) ? maxLagBytes(kept.body()) : 0;
		this.versions = new long[this.keptVersions.length + 8];
	}

	@Override
	public void segmentEnded(ChunkedOutput output, long start, long end) {
		version(output, start, end);
		KeptBody kept = this.kept;
		if (this.taken && kept != null) {
			int first = firstCandidate(this.count);
			this.needed = (first < kept.body().segmentCount()) ? kept.body().segmentStart(first) : kept.body().length();
			kept.body().releaseBefore(Math.max(this.needed, end - this.maxLag));
		}
	}

	@Override
	public void chunkFilled(long size) {
		KeptBody kept = this.kept;
		if (this.taken && kept != null) {
			kept.body().releaseBefore(Math.max(this.needed, size - this.maxLag));
		}
	}

	// Once the output became a body, which tells the last segment.
	long[] versions() {
		if (this.count != this.versions.length) {
			this.versions = Arrays.copyOf(this.versions, this.count);
		}
		return this.versions;
	}

	// From 0 to 1, or -1 where there was no kept body.
	double unchangedShare(long length) {
		if (this.kept == null) {
			return -1;
		}
		return (length == 0) ? 1 : (double) this.unchanged / length;
	}

	private void version(ChunkedOutput output, long start, long end) {
		this.output = output;
		this.start = start;
		this.length = end - start;
		// With no kept body, every segment is new: nothing to look for.
		int match = (this.kept != null) ? find(this.count, this.keptVersions.length) : -1;
		this.output = null;
		if (this.count == this.versions.length) {
			this.versions = Arrays.copyOf(this.versions, this.count * 2);
		}
		if (match >= 0) {
			this.versions[this.count++] = this.keptVersions[match];
			this.unchanged += this.length;
		}
		else {
			this.versions[this.count++] = this.versionCounter.incrementAndGet();
		}
	}

	@Override
	boolean equal(int segment, int earlier) {
		ChunkedOutput output = this.output;
		KeptBody kept = this.kept;
		if (output == null || kept == null) {
			return false;
		}
		long earlierStart = kept.body().segmentStart(earlier);
		return kept.body().segmentEnd(earlier) - earlierStart == this.length && kept.body().holds(earlierStart)
				&& output.rangeEquals(this.start, kept.body(), earlierStart, this.length);
	}

	// How far behind a rendering the body it took is held at most: a sixteenth of it, and
	// a chunk for the one being read.
	static long maxLagBytes(PooledBody body) {
		return body.length() / 16 + body.chunkSize();
	}

}
