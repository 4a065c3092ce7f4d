package io.github.leanscrape.exposition;

import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * What a body is of: format and name filter, and its coding where compressed. Scrapes of
 * one kind share renderings, cached bodies and size hints.
 *
 * @param format the format
 * @param includedNames the families to include, or {@code null} for all
 * @param coding the content coding of the body, or {@code null} when it is not compressed
 * @author leanscrape
 */
public record BodyKind(PrometheusOutputFormat format, @Nullable Set<String> includedNames,
		@Nullable ContentCoding coding) {

	/**
	 * Return the kind of an uncompressed body.
	 * @param format the format
	 * @param includedNames the families to include, or {@code null} for all
	 * @return the kind
	 */
	public static BodyKind of(PrometheusOutputFormat format, @Nullable Set<String> includedNames) {
		return new BodyKind(format, includedNames, null);
	}

	/**
	 * Return the short name of a format, for the starter's metrics and reports.
	 * @param format the format
	 * @return {@code text}, {@code openmetrics} or {@code protobuf}
	 */
	public static String formatName(PrometheusOutputFormat format) {
		return switch (format) {
			case CONTENT_TYPE_004 -> "text";
			case CONTENT_TYPE_OPENMETRICS_100 -> "openmetrics";
			case CONTENT_TYPE_PROTOBUF -> "protobuf";
		};
	}

	/**
	 * Return this kind in a content coding.
	 * @param coding the content coding
	 * @return the encoded kind
	 */
	public BodyKind encoded(ContentCoding coding) {
		return new BodyKind(this.format, this.includedNames, coding);
	}

}
