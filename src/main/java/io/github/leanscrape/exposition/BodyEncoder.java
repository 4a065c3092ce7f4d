package io.github.leanscrape.exposition;

import java.util.function.Consumer;

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
	 * Give each body that the encoder keeps between bodies to an action; what such a body
	 * holds (its chunks and its compressed forms) stays leased while it is kept.
	 * @param action what to do with each kept body
	 */
	default void keptBodies(Consumer<PooledBody> action) {
	}

}
