package io.github.leanscrape.exposition.direct;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.reference.ReferenceRenderer;
import io.github.leanscrape.support.FrozenClock;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Gauges named {@code *.info}, which Micrometer exports as info metrics ({@code jvm_info}
 * in every application), written directly, against Spring Boot's endpoint on the same
 * registry.
 */
class DirectInfoTests {

	private final ChunkPool pool = new ChunkPool(4096, 1 << 20);

	@Test
	void infoGaugesAreSpringBoots() throws Exception {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
				new PrometheusRegistry(), new FrozenClock());
		AtomicInteger value = new AtomicInteger(42);
		Gauge.builder("app.info", value, AtomicInteger::get)
			.description("App \"info\"\nwith a \\ backslash")
			.tags("version", "1.2 \"beta\"", "vendor", "zürich")
			.register(registry);
		Gauge.builder("app.info", value, AtomicInteger::get)
			.description("App \"info\"\nwith a \\ backslash")
			.tags("version", "1.3", "vendor", "acme")
			.register(registry);
		Gauge.builder("cache.info", value, AtomicInteger::get).baseUnit("bytes").register(registry);
		Gauge.builder("app", value, AtomicInteger::get).tag("k", "v").register(registry);
		Gauge.builder("app.size", value, AtomicInteger::get).register(registry);
		Properties properties = PrometheusConfig.DEFAULT.prometheusProperties();
		DirectRenderer renderer = new DirectRenderer(registry, PrometheusConfig.DEFAULT, properties,
				new ReferenceRenderer(registry.getPrometheusRegistry(), properties), Long.MAX_VALUE);
		PrometheusScrapeEndpoint boot = new PrometheusScrapeEndpoint(registry.getPrometheusRegistry(), properties);
		for (Set<String> names : Arrays.asList(null, Set.of("app"), Set.of("app_info", "cache_info_bytes"))) {
			for (PrometheusOutputFormat format : PrometheusOutputFormat.values()) {
				SpringBootsBytes.assertSame(renderer, boot, this.pool, format, names);
			}
		}
		assertThat(new String(boot.scrape(PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100, null).getBody(),
				StandardCharsets.UTF_8))
			.contains("# TYPE cache_info_bytes info");
		assertThat(renderer.wholeScrapeFallbacks()).isZero();
		CardinalityReport report = renderer.cardinality();
		assertThat(report).isNotNull();
		assertThat(report.families())
			.anyMatch((family) -> family.name().equals("cache_info_bytes") && family.renderer().equals("direct"));
	}

}
