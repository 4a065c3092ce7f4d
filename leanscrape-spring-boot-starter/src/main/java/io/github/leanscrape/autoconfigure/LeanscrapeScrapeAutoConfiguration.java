package io.github.leanscrape.autoconfigure;

import io.github.leanscrape.compression.BodyEncoder;
import io.github.leanscrape.compression.GzipEncoder;
import io.github.leanscrape.compression.ZstdEncoder;
import io.github.leanscrape.endpoint.CardinalityEndpoint;
import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ExpositionRenderer;
import io.github.leanscrape.exposition.SizeHints;
import io.github.leanscrape.exposition.direct.DirectRenderer;
import io.github.leanscrape.exposition.direct.RenderStatistics;
import io.github.leanscrape.exposition.reference.ReferenceRenderer;
import io.github.leanscrape.metrics.MicrometerSelfMetrics;
import io.github.leanscrape.serve.Deadlines;
import io.github.leanscrape.serve.ScrapeResponder;
import io.github.leanscrape.serve.Scraper;
import io.github.leanscrape.serve.SelfMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of what serves the scrapes of the leanscrape {@code prometheus}
 * endpoint, when that endpoint is the starter's. Ordered after Spring Boot's Prometheus
 * export configuration, so that its conditions see the registries.
 * <p>
 * Each choice the properties make is a bean with its own condition: the direct renderer
 * (else the reference renderer), gzip compression, zstd compression (when zstd-jni is on
 * the class path), the starter's own metrics.
 *
 * @author leanscrape
 */
@AutoConfiguration(after = { PrometheusMetricsExportAutoConfiguration.class, LeanscrapeAutoConfiguration.class })
@ConditionalOnBean(LeanscrapeScrapeEndpoint.class)
@Import({ LeanscrapeScrapeAutoConfiguration.DirectRendererConfiguration.class,
		LeanscrapeScrapeAutoConfiguration.ReferenceRendererConfiguration.class,
		LeanscrapeScrapeAutoConfiguration.ZstdConfiguration.class })
public final class LeanscrapeScrapeAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint(CardinalityEndpoint.class)
	CardinalityEndpoint leanscrapeEndpoint(ObjectProvider<RenderStatistics> statistics) {
		return new CardinalityEndpoint(statistics.getIfAvailable());
	}

	@Bean
	@ConditionalOnMissingBean
	Deadlines leanscrapeDeadlines(LeanscrapeProperties properties) {
		return new Deadlines(properties.getScrapeTimeout(), properties.getMaxScrapeTimeout());
	}

	@Bean
	@ConditionalOnMissingBean
	ChunkPool leanscrapeChunkPool(LeanscrapeProperties properties) {
		return new ChunkPool(ChunkPool.DEFAULT_CHUNK_SIZE, properties.getBuffer().getMaxRetained().toBytes());
	}

	@Bean
	@ConditionalOnMissingBean
	SizeHints leanscrapeSizeHints(ChunkPool pool, LeanscrapeProperties properties) {
		return new SizeHints(pool, properties.getBuffer().getHeadroom().toBytes());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBooleanProperty(name = "leanscrape.compression.enabled", matchIfMissing = true)
	GzipEncoder leanscrapeGzipEncoder(ChunkPool pool, LeanscrapeProperties properties) {
		return new GzipEncoder(pool, properties.getCompression().getLevel());
	}

	@Bean
	@ConditionalOnMissingBean
	Scraper leanscrapeScraper(ExpositionRenderer renderer, ChunkPool pool, SizeHints sizeHints,
			ObjectProvider<BodyEncoder> encoders, LeanscrapeProperties properties) {
		return new Scraper(renderer, pool, sizeHints, encoders.orderedStream().toList(),
				properties.getMaxConcurrentRenders(), properties.getCache().getTimeToLive(),
				properties.getBuffer().getMaxHeldBodies(), properties.getReuse().isEnabled());
	}

	@Bean
	@ConditionalOnMissingBean(SelfMetrics.class)
	@ConditionalOnBooleanProperty(name = "leanscrape.metrics.enabled", matchIfMissing = true)
	@ConditionalOnSingleCandidate(MeterRegistry.class)
	MicrometerSelfMetrics leanscrapeMetrics(MeterRegistry meterRegistry, Scraper scraper, ChunkPool pool,
			ObjectProvider<RenderStatistics> statistics) {
		return new MicrometerSelfMetrics(meterRegistry, scraper, pool, statistics.getIfAvailable());
	}

	@Bean
	@ConditionalOnMissingBean
	ScrapeResponder leanscrapeResponder(Scraper scraper, Deadlines deadlines, ObjectProvider<SelfMetrics> metrics) {
		return new ScrapeResponder(scraper, deadlines, metrics.getIfAvailable(() -> SelfMetrics.NONE));
	}

	/**
	 * zstd compression, when compression is on and zstd-jni is on the class path with a
	 * native library for this platform.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "com.github.luben.zstd.ZstdCompressCtx")
	@ConditionalOnBooleanProperty(name = "leanscrape.compression.enabled", matchIfMissing = true)
	@ConditionalOnBooleanProperty(name = "leanscrape.compression.zstd.enabled", matchIfMissing = true)
	@Conditional(OnZstdNativeLibraryCondition.class)
	static class ZstdConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ZstdEncoder leanscrapeZstdEncoder(ChunkPool pool, LeanscrapeProperties properties) {
			return new ZstdEncoder(pool, properties.getCompression().getZstd().getLevel(),
					properties.getCompression().getZstd().isFramePerSegment());
		}

	}

	/**
	 * The direct path, when it is on and the meter registry is known.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty(name = "leanscrape.direct.enabled", matchIfMissing = true)
	@ConditionalOnSingleCandidate(PrometheusMeterRegistry.class)
	static class DirectRendererConfiguration {

		@Bean
		@ConditionalOnMissingBean(ExpositionRenderer.class)
		DirectRenderer leanscrapeDirectRenderer(PrometheusRegistry prometheusRegistry,
				PrometheusConfig prometheusConfig, PrometheusMeterRegistry meterRegistry,
				LeanscrapeProperties properties) {
			ReferenceRenderer reference = new ReferenceRenderer(prometheusRegistry,
					prometheusConfig.prometheusProperties());
			return new DirectRenderer(meterRegistry, prometheusConfig, prometheusConfig.prometheusProperties(),
					reference, properties.getCardinality().getWarnThreshold());
		}

	}

	/**
	 * The reference path alone, when the direct path is off or has no meter registry.
	 */
	@Configuration(proxyBeanMethods = false)
	@Conditional(DirectRendererUnavailable.class)
	static class ReferenceRendererConfiguration {

		@Bean
		@ConditionalOnMissingBean(ExpositionRenderer.class)
		ReferenceRenderer leanscrapeReferenceRenderer(PrometheusRegistry prometheusRegistry,
				PrometheusConfig prometheusConfig) {
			return new ReferenceRenderer(prometheusRegistry, prometheusConfig.prometheusProperties());
		}

	}

	/**
	 * The conditions of {@link DirectRendererConfiguration} do not hold.
	 */
	static final class DirectRendererUnavailable extends NoneNestedConditions {

		DirectRendererUnavailable() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@ConditionalOnBooleanProperty(name = "leanscrape.direct.enabled", matchIfMissing = true)
		@ConditionalOnSingleCandidate(PrometheusMeterRegistry.class)
		static final class DirectRendererAvailable {

		}

	}

}
