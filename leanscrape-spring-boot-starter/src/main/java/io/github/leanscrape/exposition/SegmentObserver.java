package io.github.leanscrape.exposition;

/**
 * Told of each segment of a {@link ChunkedOutput} as it ends, to compare it with the last
 * body at once and give back what of that body is no longer needed.
 *
 * @author leanscrape
 */
public interface SegmentObserver {

	/**
	 * A segment of the output ended.
	 * @param output the output, whose bytes in the segment can be read
	 * ({@link ChunkedOutput#rangeEquals})
	 * @param start where the segment starts
	 * @param end where it ends
	 */
	void segmentEnded(ChunkedOutput output, long start, long end);

	/**
	 * The output filled a chunk; not told while a body's range, whose chunk must stay, is
	 * {@linkplain ChunkedOutput#copy copied}.
	 * @param size how many bytes the output holds
	 */
	void chunkFilled(long size);

}
