package io.github.leanscrape.exposition;

/**
 * Told of each segment of a {@link ChunkedOutput} as it ends, while the rendering goes
 * on: to compare it with the last body of its kind at once, and give back what of that
 * body no later segment needs.
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
	 * The output filled a chunk and takes another; not told while a range of a body is
	 * {@linkplain ChunkedOutput#copy copied} in, whose chunk must stay where it is.
	 * @param size how many bytes the output holds
	 */
	void chunkFilled(long size);

}
