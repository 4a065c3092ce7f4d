package io.github.leanscrape.exposition;

import java.io.IOException;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * Writes the exposition of a registry in one format into a {@link ChunkedOutput}.
 *
 * @author leanscrape
 */
public interface ExpositionRenderer {

	/**
	 * Render one scrape.
	 * @param format the format to write
	 * @param includedNames the families to include, or {@code null} for all
	 * @param out the buffer to write to
	 * @throws IOException when writing fails
	 */
	void render(PrometheusOutputFormat format, @Nullable Set<String> includedNames, ChunkedOutput out)
			throws IOException;

	/**
	 * Render one scrape, given what it may copy from; by default, copying nothing.
	 * @param format the format to write
	 * @param includedNames the families to include, or {@code null} for all
	 * @param out the buffer to write to
	 * @param inputs what the rendering may copy from, and whether its body is kept
	 * @throws IOException when writing fails
	 */
	default void render(PrometheusOutputFormat format, @Nullable Set<String> includedNames, ChunkedOutput out,
			RenderInputs inputs) throws IOException {
		render(format, includedNames, out);
	}

}
