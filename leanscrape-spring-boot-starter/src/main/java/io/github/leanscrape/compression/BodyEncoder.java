package io.github.leanscrape.compression;

import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import org.jspecify.annotations.Nullable;

/**
 * Compresses a {@link PooledBody} in one content coding into a body of pooled chunks,
 * whole or segment by segment. What is kept from one body to the next, and so which
 * segments may be copied, is decided by the caller.
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
	 * Compress a body whole. The input is not released.
	 * @param body the body to compress
	 * @param kind the kind of the compressed body
	 * @param expectedSize the expected compressed size
	 * @return a new body holding the compressed stream, whose reference the caller owns
	 */
	default PooledBody encode(PooledBody body, BodyKind kind, long expectedSize) {
		return encode(body, kind, expectedSize, false, null, null).body();
	}

	/**
	 * Compress a body, whole or segment by segment; a segment may be copied compressed as
	 * it is in an earlier encoded body. The input is not released.
	 * @param body the body to compress
	 * @param kind the kind of the compressed body
	 * @param expectedSize the expected compressed size
	 * @param segmented whether to compress each segment on its own, so that a later body
	 * can copy it; only where {@link #compressesSegments()}
	 * @param previous an earlier body in this coding, compressed segment by segment, or
	 * {@code null}
	 * @param copyFrom for each segment of the body, the segment of {@code previous} whose
	 * compressed bytes it copies (the caller has checked they encode the same bytes), or
	 * {@code -1} to compress it; {@code null} to compress every segment
	 * @return the compressed body with where its segments lie, whose reference the caller
	 * owns
	 */
	EncodedBody encode(PooledBody body, BodyKind kind, long expectedSize, boolean segmented,
			@Nullable EncodedBody previous, int @Nullable [] copyFrom);

	/**
	 * Return the least share of a body, in segments whose compressed bytes can be copied,
	 * for compressing it segment by segment to cost less than compressing it whole.
	 * @return the share, from 0 to 1
	 */
	double minReusedShare();

	/**
	 * Return whether this encoder may compress a body segment by segment: whether every
	 * client it may be sent to reads such a body whole.
	 * @return {@code false} when it compresses every body whole
	 */
	boolean compressesSegments();

	/**
	 * Return how many segments this encoder compressed (a body compressed whole counts as
	 * one).
	 * @return the segments compressed
	 */
	long segmentsCompressed();

	/**
	 * Return how many segments this encoder copied compressed as they were in an earlier
	 * body, without compressing them again.
	 * @return the segments reused
	 */
	long segmentsReused();

}
