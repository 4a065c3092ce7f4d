package io.github.leanscrape.compression;

import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * Compresses a {@link PooledBody} in one content coding, whole or segment by segment.
 *
 * @author leanscrape
 */
public interface BodyEncoder {

	/**
	 * Return the content coding of the bodies this encoder makes.
	 * @return the coding
	 */
	ContentCoding coding();

	/**
	 * Compress a body, copying segments of another where told to; neither is released.
	 * @param body the body to compress
	 * @param kind the kind of the compressed body
	 * @param expectedSize the expected compressed size
	 * @param segmented whether to compress segment by segment, for a later body to copy
	 * @param previous a form by segment in this coding, or {@code null}
	 * @param copyFrom per segment, the segment of {@code previous} with the same bytes,
	 * or {@code -1}; {@code null} to compress every segment
	 * @return the compressed body, whose reference the caller owns
	 */
	EncodedBody encode(PooledBody body, BodyKind kind, long expectedSize, boolean segmented,
			@Nullable EncodedBody previous, int @Nullable [] copyFrom);

	/**
	 * Return the least share of a body in copied segments for which compressing it by
	 * segment costs less than compressing it whole.
	 * @return the share, from 0 to 1
	 */
	double minReusedShare();

	/**
	 * Return whether bodies may be compressed by segment: every client reads them whole.
	 * @return {@code false} when every body is compressed whole
	 */
	boolean compressesSegments();

	/**
	 * Return how many segments were compressed (a body compressed whole counts as one).
	 * @return the segments compressed
	 */
	long segmentsCompressed();

	/**
	 * Return how many segments were copied from an earlier form.
	 * @return the segments reused
	 */
	long segmentsReused();

}
