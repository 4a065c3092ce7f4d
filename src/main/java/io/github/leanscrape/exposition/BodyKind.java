package io.github.leanscrape.exposition;

import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * What a body holds: a format, a name filter and an encoding. Two scrapes that ask for
 * the same kind are interchangeable: they share a rendering when they overlap, a cached
 * body within its time to live, and a size hint.
 *
 * @param format the format
 * @param includedNames the families to include, or {@code null} for all
 * @param gzip whether this is the compressed body
 * @author leanscrape
 */
public record BodyKind(PrometheusOutputFormat format, @Nullable Set<String> includedNames, boolean gzip) {

	/**
	 * Return the kind of an uncompressed body.
	 * @param format the format
	 * @param includedNames the families to include, or {@code null} for all
	 * @return the kind
	 */
	public static BodyKind of(PrometheusOutputFormat format, @Nullable Set<String> includedNames) {
		return new BodyKind(format, includedNames, false);
	}

	/**
	 * Return the kind of the compressed body of this kind's scrapes.
	 * @return the compressed kind
	 */
	public BodyKind compressed() {
		return new BodyKind(this.format, this.includedNames, true);
	}

}
