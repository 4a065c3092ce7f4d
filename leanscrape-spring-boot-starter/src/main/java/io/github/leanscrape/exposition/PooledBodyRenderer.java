package io.github.leanscrape.exposition;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.jspecify.annotations.Nullable;

/**
 * Renders a kind into a {@link PooledBody} of pooled chunks, as many expected as the
 * kind's last rendering took ({@link SizeHints}), and records what this one took for the
 * next.
 *
 * @author leanscrape
 */
public final class PooledBodyRenderer {

	private final ExpositionRenderer renderer;

	private final ChunkPool pool;

	private final SizeHints sizeHints;

	/**
	 * Create a new instance.
	 * @param renderer the renderer that writes the exposition
	 * @param pool the pool of output chunks
	 * @param sizeHints the size hints of each kind of body
	 */
	public PooledBodyRenderer(ExpositionRenderer renderer, ChunkPool pool, SizeHints sizeHints) {
		this.renderer = renderer;
		this.pool = pool;
		this.sizeHints = sizeHints;
	}

	/**
	 * Render one body of a kind.
	 * @param kind the kind, uncompressed
	 * @param inputs what the rendering may copy from, and whether its body is kept
	 * @param observer what reads the segments as they end, or {@code null}
	 * @return the body, whose reference the caller owns
	 */
	public PooledBody render(BodyKind kind, RenderInputs inputs, @Nullable SegmentObserver observer) {
		long expectedSize = this.sizeHints.expectedSize(kind);
		ChunkedOutput output = new ChunkedOutput(this.pool, kind, expectedSize, observer);
		try {
			this.renderer.render(kind.format(), kind.includedNames(), output, inputs);
			// The pool retains what the next rendering of this kind will take: its output
			// and its working buffer (protobuf's families). Recorded before the chunks
			// become a body, which an Error here would leak.
			this.sizeHints.record(kind, output.size() + output.workingBytes());
			return output.toBody();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Writing metrics failed", ex);
		}
		finally {
			// Nothing once the chunks are the body's.
			output.discard();
		}
	}

}
