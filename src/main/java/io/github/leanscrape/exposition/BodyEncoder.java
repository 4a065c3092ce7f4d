package io.github.leanscrape.exposition;

import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * Compresses a {@link PooledBody} in one content coding into a body of pooled chunks.
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
	 * Compress a body. The input is not released.
	 * @param body the body to compress
	 * @param kind the kind of the compressed body
	 * @param expectedSize the expected compressed size
	 * @return a new body holding the compressed stream
	 */
	PooledBody encode(PooledBody body, BodyKind kind, long expectedSize);

	/**
	 * Give back what the encoder keeps between bodies (the last body of each kind and its
	 * compressed form), for example when memory is short. The next body of each kind is
	 * compressed whole.
	 */
	default void forgetSegments() {
		forgetSegmentsExcept(null);
	}

	/**
	 * Give back what the encoder keeps for every kind of body but one, whose next body a
	 * rendering about to start may reuse from its last.
	 * @param kind the kind (uncompressed) whose last body and its compressed form stay
	 * kept, or {@code null} to keep none
	 */
	default void forgetSegmentsExcept(@Nullable BodyKind kind) {
	}

	/**
	 * Return how many segments this encoder compressed.
	 * @return the segments compressed
	 */
	default long segmentsCompressed() {
		return 0;
	}

	/**
	 * Return how many segments this encoder sent compressed as they were for the last
	 * body of the same kind, without compressing them again.
	 * @return the segments reused
	 */
	default long segmentsReused() {
		return 0;
	}

	/**
	 * Return the last body of a kind that this encoder keeps, with a reference of the
	 * caller's own, which the caller must release: a renderer may copy from it what did
	 * not change (see {@link ChunkedOutput#setPrevious(PooledBody)}).
	 * @param kind the kind of body, uncompressed
	 * @return the body, or {@code null} when none is kept
	 */
	default @Nullable PooledBody lastBody(BodyKind kind) {
		return null;
	}

	/**
	 * Give each body that the encoder keeps between bodies to an action; what such a body
	 * holds (its chunks and its compressed forms) stays leased while it is kept.
	 * @param action what to do with each kept body
	 */
	default void keptBodies(Consumer<PooledBody> action) {
	}

}
