package io.github.leanscrape.exposition.direct;

import java.util.Map;
import java.util.Properties;
import java.util.Set;

import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.reference.ReferenceRenderer;
import io.github.leanscrape.support.FrozenClock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DuplicateLabelsException;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.tracer.common.SpanContext;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Each kind of fallback to the reference path: the output stays Spring Boot's, and the
 * fallback is counted.
 */
class DirectRendererFallbackTests {

	private static final PrometheusOutputFormat TEXT = PrometheusOutputFormat.CONTENT_TYPE_004;

	private static final PrometheusOutputFormat OPENMETRICS = PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100;

	@Test
	void collectorsRegisteredOutsideMicrometerAreWrittenInPlaceByTheReferencePath() {
		Fixture fixture = new Fixture(null, PrometheusConfig.DEFAULT.prometheusProperties());
		Collector outside = () -> GaugeSnapshot.builder()
			.name("outside_micrometer")
			.help("Registered in client_java")
			.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(3).build())
			.build();
		MultiCollector outsideMany = () -> MetricSnapshots.of(
				CounterSnapshot.builder()
					.name("aaa_first")
					.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
						.labels(Labels.of("k", "v\"\n"))
						.value(1.5)
						.build())
					.build(),
				GaugeSnapshot.builder()
					.name("zzz_last")
					.help("Last \\ of all")
					.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(-0.0).build())
					.build());
		fixture.registry.getPrometheusRegistry().register(outside);
		fixture.registry.getPrometheusRegistry().register(outsideMany);
		fixture.assertSameAsSpringBoot(TEXT, null);
		fixture.assertSameAsSpringBoot(OPENMETRICS, null);
		fixture.assertSameAsSpringBoot(TEXT, Set.of("outside_micrometer", "requests"));
		fixture.assertSameAsSpringBoot(OPENMETRICS, Set.of("requests", "zzz_last"));
		fixture.assertSameAsSpringBoot(TEXT, Set.of("requests"));
		assertThat(fixture.renderer.directScrapes()).isEqualTo(5);
		assertThat(fixture.renderer.wholeScrapeFallbacks()).isZero();
	}

	@Test
	void collectorOutsideMicrometerWithTheNameOfAMeterFailsAsSpringBootsEndpointFails() {
		Fixture fixture = new Fixture(null, PrometheusConfig.DEFAULT.prometheusProperties());
		MultiCollector clash = () -> MetricSnapshots.of(GaugeSnapshot.builder()
			.name("requests")
			.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(1).build())
			.build());
		Throwable registration = catchThrowable(() -> fixture.registry.getPrometheusRegistry().register(clash));
		Throwable boot = catchThrowable(() -> fixture.boot.scrape(TEXT, null));
		if (registration == null && boot != null) {
			ChunkedOutput buffer = new ChunkedOutput(fixture.pool, BodyKind.of(TEXT, null), 0);
			assertThatExceptionOfType(boot.getClass()).isThrownBy(() -> fixture.renderer.render(TEXT, null, buffer))
				.withMessage(boot.getMessage());
			buffer.discard();
		}
		else {
			fixture.assertSameAsSpringBoot(TEXT, null);
		}
	}

	@Test
	void exemplarsAreWrittenDirectlyInOpenMetricsAndNeverInText() {
		SpanContext spanContext = new SampledSpan();
		Fixture fixture = new Fixture(spanContext, PrometheusConfig.DEFAULT.prometheusProperties());
		fixture.counter.increment();
		fixture.assertSameAsSpringBoot(OPENMETRICS, null);
		fixture.assertSameAsSpringBoot(TEXT, null);
		assertThat(fixture.renderer.wholeScrapeFallbacks()).isZero();
		assertThat(fixture.renderer.directScrapes()).isEqualTo(2);
	}

	@Test
	void protobufIsWrittenDirectly() {
		Fixture fixture = new Fixture(null, PrometheusConfig.DEFAULT.prometheusProperties());
		fixture.assertSameAsSpringBoot(PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF, null);
		fixture.assertSameAsSpringBoot(PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF, Set.of("requests", "zzz_last"));
		assertThat(fixture.renderer.wholeScrapeFallbacks()).isZero();
		assertThat(fixture.renderer.directScrapes()).isEqualTo(2);
	}

	@Test
	void meterTypesTheDirectPathDoesNotWriteAreWrittenByTheReferencePathInPlace() {
		Fixture fixture = new Fixture(null, PrometheusConfig.DEFAULT.prometheusProperties());
		fixture.assertSameAsSpringBoot(TEXT, null);
		fixture.assertSameAsSpringBoot(OPENMETRICS, null);
		fixture.assertSameAsSpringBoot(TEXT, Set.of("batch", "requests"));
		assertThat(fixture.renderer.directScrapes()).isEqualTo(3);
		assertThat(fixture.renderer.wholeScrapeFallbacks()).isZero();
		// batch, in each of the three scrapes
		assertThat(fixture.renderer.familyFallbacks()).isEqualTo(3);
	}

	@Test
	void scrapesOfARegistryOtherThanTheMeterRegistrysGoWholeToTheReferencePathWhoseReasonIsReported() throws Exception {
		Properties properties = PrometheusConfig.DEFAULT.prometheusProperties();
		PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, new PrometheusRegistry(),
				new FrozenClock());
		Counter.builder("requests").register(meters).increment();
		PrometheusMeterRegistry scraped = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
				new PrometheusRegistry(), new FrozenClock());
		Counter.builder("other").register(scraped).increment(3);
		DirectRenderer renderer = new DirectRenderer(meters, PrometheusConfig.DEFAULT, properties,
				new ReferenceRenderer(scraped.getPrometheusRegistry(), properties), Long.MAX_VALUE);
		assertThat(renderer.cardinality()).isNull();
		ChunkPool pool = new ChunkPool(4096, 1 << 20);
		PrometheusScrapeEndpoint boot = new PrometheusScrapeEndpoint(scraped.getPrometheusRegistry(), properties);
		SpringBootsBytes.assertSame(renderer, boot, pool, TEXT, null);
		SpringBootsBytes.assertSame(renderer, boot, pool, OPENMETRICS, null);
		CardinalityReport report = renderer.cardinality();
		assertThat(report).isNotNull();
		assertThat(report.format()).isNull();
		assertThat(report.families()).isEmpty();
		assertThat(report.wholeScrapeFallbacks()).isEqualTo(2);
		assertThat(report.wholeScrapeFallbackReasons())
			.containsExactly(Map.entry("the scraped registry is not the meter registry's", 2L));
	}

	@Test
	void tagKeysThatBecomeTheSameLabelGiveWhatSpringBootsEndpointGives() {
		Fixture fixture = new Fixture(null, PrometheusConfig.DEFAULT.prometheusProperties());
		Counter dotted = Counter.builder("jobs").tag("a.b", "x").register(fixture.registry);
		Counter.builder("jobs").tag("a_b", "x").register(fixture.registry).increment();
		// Micrometer 1.17 hands client_java two series with the same labels, which it
		// refuses; 1.16 keeps one of them. Either way the starter must do what Spring
		// Boot's endpoint does.
		Throwable boot = catchThrowable(() -> fixture.boot.scrape(TEXT, null));
		if (boot != null) {
			assertThat(boot).isInstanceOf(DuplicateLabelsException.class);
			ChunkedOutput buffer = new ChunkedOutput(fixture.pool,
					BodyKind.of(PrometheusOutputFormat.CONTENT_TYPE_004, null), 0);
			assertThatExceptionOfType(DuplicateLabelsException.class)
				.isThrownBy(() -> fixture.renderer.render(TEXT, null, buffer))
				.withMessage(boot.getMessage());
			buffer.toBody().release();
		}
		else {
			fixture.assertSameAsSpringBoot(TEXT, null);
		}
		fixture.registry.remove(dotted);
		fixture.assertSameAsSpringBoot(TEXT, null);
		fixture.assertSameAsSpringBoot(OPENMETRICS, Set.of("jobs_total"));
	}

	private static final class Fixture {

		final PrometheusMeterRegistry registry;

		final DirectRenderer renderer;

		final PrometheusScrapeEndpoint boot;

		final ChunkPool pool = new ChunkPool(4096, 1 << 20);

		final Counter counter;

		final Counter batch;

		Fixture(@Nullable SpanContext spanContext, Properties properties) {
			PrometheusConfig config = SpringBootsBytes.config(properties);
			this.registry = new PrometheusMeterRegistry(config, new PrometheusRegistry(), new FrozenClock(),
					spanContext);
			this.counter = Counter.builder("requests").tag("uri", "/a").register(this.registry);
			this.counter.increment(2);
			// Meters of one name whose tag keys differ, left to the reference path.
			this.batch = Counter.builder("batch").tag("queue", "a").register(this.registry);
			Counter.builder("batch").tag("region", "b").register(this.registry).increment();
			this.renderer = new DirectRenderer(this.registry, config, properties,
					new ReferenceRenderer(this.registry.getPrometheusRegistry(), properties), Long.MAX_VALUE);
			this.boot = new PrometheusScrapeEndpoint(this.registry.getPrometheusRegistry(), properties);
		}

		void assertSameAsSpringBoot(PrometheusOutputFormat format, @Nullable Set<String> names) {
			try {
				SpringBootsBytes.assertSame(this.renderer, this.boot, this.pool, format, names);
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

}
