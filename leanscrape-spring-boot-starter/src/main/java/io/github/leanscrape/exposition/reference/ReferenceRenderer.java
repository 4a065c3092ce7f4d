package io.github.leanscrape.exposition.reference;

import java.io.IOException;
import java.util.Properties;
import java.util.Set;

import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.ExpositionRenderer;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.config.PrometheusPropertiesLoader;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * The reference path: {@link PrometheusRegistry#scrape()} and client_java's writers,
 * configured as Spring Boot's endpoint configures them, so its output is that endpoint's.
 *
 * @author leanscrape
 */
public final class ReferenceRenderer implements ExpositionRenderer {

	private final PrometheusRegistry registry;

	private final ExpositionFormats expositionFormats;

	/**
	 * Create a new renderer.
	 * @param registry the registry to scrape
	 * @param exporterProperties client_java's exporter properties, as given to Spring
	 * Boot's endpoint, or {@code null} for the defaults
	 */
	@SuppressWarnings("deprecation")
	public ReferenceRenderer(PrometheusRegistry registry, @Nullable Properties exporterProperties) {
		this.registry = registry;
		PrometheusProperties properties = (exporterProperties != null)
				? PrometheusPropertiesLoader.load(exporterProperties) : PrometheusPropertiesLoader.load();
		// Deprecated, but in every client_java Spring Boot 4.0 and 4.1 manage (1.4 has no
		// init(PrometheusProperties)); on 1.7 it builds the same writers.
		this.expositionFormats = ExpositionFormats.init(properties.getExporterProperties());
	}

	@Override
	public void render(PrometheusOutputFormat format, @Nullable Set<String> includedNames, ChunkedOutput out)
			throws IOException {
		MetricSnapshots snapshots = (includedNames != null) ? this.registry.scrape(includedNames::contains)
				: this.registry.scrape();
		writer(format).write(out, snapshots);
	}

	/**
	 * Return client_java's writer for a format.
	 * @param format the format
	 * @return the writer Spring Boot's endpoint uses for it
	 */
	public ExpositionFormatWriter writer(PrometheusOutputFormat format) {
		return switch (format) {
			case CONTENT_TYPE_004 -> this.expositionFormats.getPrometheusTextFormatWriter();
			case CONTENT_TYPE_OPENMETRICS_100 -> this.expositionFormats.getOpenMetricsTextFormatWriter();
			case CONTENT_TYPE_PROTOBUF -> this.expositionFormats.getPrometheusProtobufWriter();
		};
	}

	/**
	 * Return the registry scraped.
	 * @return the registry
	 */
	public PrometheusRegistry registry() {
		return this.registry;
	}

}
