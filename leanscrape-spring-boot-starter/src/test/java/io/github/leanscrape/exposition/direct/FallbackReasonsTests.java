package io.github.leanscrape.exposition.direct;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.reference.ReferenceRenderer;
import io.github.leanscrape.support.FrozenClock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.NamingConvention;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.tracer.common.SpanContext;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Each {@link FallbackReason}, provoked on real registries (where a reflective read must
 * fail, through what the renderer is given to read): the output stays Spring Boot's, the
 * first fallback of the reason is logged once, at warn level (info for collectors
 * registered outside Micrometer) with the families concerned and what to do, and the
 * reason is in the cardinality report.
 */
@ExtendWith(OutputCaptureExtension.class)
class FallbackReasonsTests {

	private static final boolean MICROMETER_1_18_OR_LATER = isMicrometer118OrLater();

	private static final Properties PROPERTIES = PrometheusConfig.DEFAULT.prometheusProperties();

	private static final PrometheusOutputFormat TEXT = PrometheusOutputFormat.CONTENT_TYPE_004;

	private static final PrometheusOutputFormat OPENMETRICS = PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100;

	private static final PrometheusOutputFormat PROTOBUF = PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF;

	private final ChunkPool pool = new ChunkPool(4096, 1 << 20);

	@Test
	void scrapedRegistryNotTheMeterRegistrys(CapturedOutput output) {
		PrometheusMeterRegistry meters = registry(null);
		Counter.builder("requests").register(meters).increment();
		PrometheusMeterRegistry scraped = registry(null);
		Counter.builder("other").register(scraped).increment(3);
		DirectRenderer renderer = new DirectRenderer(meters, PrometheusConfig.DEFAULT, PROPERTIES,
				new ReferenceRenderer(scraped.getPrometheusRegistry(), PROPERTIES), Long.MAX_VALUE);
		scrapeTwiceEach(renderer, scraped, TEXT, OPENMETRICS);
		assertWholeScrapes(renderer, output, FallbackReason.SCRAPED_REGISTRY_NOT_THE_METER_REGISTRYS, 4, null);
	}

	@Test
	void internalsNotVisible(CapturedOutput output) {
		PrometheusMeterRegistry registry = registry(null);
		Counter.builder("requests").register(registry).increment();
		DirectRenderer renderer = renderer(registry, MicrometerInternals.unreadable(), new ExemplarLocator(), true);
		scrapeTwiceEach(renderer, registry, TEXT, PROTOBUF);
		assertWholeScrapes(renderer, output, FallbackReason.INTERNALS_NOT_VISIBLE, 4, null);
	}

	@Test
	void exemplarsNotReadable(CapturedOutput output) {
		PrometheusMeterRegistry registry = registry(new SampledSpan());
		Counter.builder("requests").register(registry).increment();
		// A locator that cannot read the samplers' fields: none at all.
		DirectRenderer renderer = renderer(registry, new MicrometerInternals(registry), null, true);
		scrapeTwiceEach(renderer, registry, OPENMETRICS, PROTOBUF);
		// Text 0.0.4 has no exemplars: written directly.
		scrapeTwiceEach(renderer, registry, TEXT);
		assertThat(renderer.directScrapes()).isEqualTo(2);
		assertWholeScrapes(renderer, output, FallbackReason.EXEMPLARS_NOT_READABLE, 4, null);
	}

	@Test
	void createdTimestampsNotReadable(CapturedOutput output) {
		PrometheusMeterRegistry registry = registry(null);
		Counter.builder("requests").tag("uri", "/a").register(registry).increment();
		// The internals of a twin registry whose collector has the name but not the
		// series: as when a meter was removed and added again while a scrape read it.
		PrometheusMeterRegistry twin = registry(null);
		Counter.builder("requests").tag("uri", "/b").register(twin);
		DirectRenderer renderer = renderer(registry, new MicrometerInternals(twin), new ExemplarLocator(), true);
		// Protobuf writes counters' created timestamps.
		scrapeTwiceEach(renderer, registry, PROTOBUF);
		assertWholeScrapes(renderer, output, FallbackReason.CREATED_TIMESTAMPS_NOT_READABLE, 2, "requests");
	}

	@Test
	void familyOfMoreThanOneSource(CapturedOutput output) {
		PrometheusMeterRegistry registry = registry(null);
		Gauge.builder("queue.size", () -> 3.0).register(registry);
		// A collector that names no family when registered, so client_java accepts it.
		MultiCollector clash = () -> MetricSnapshots.of(GaugeSnapshot.builder()
			.name("queue_size")
			.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(1).build())
			.build());
		registry.getPrometheusRegistry().register(clash);
		DirectRenderer renderer = renderer(registry);
		scrapeTwiceEach(renderer, registry, TEXT);
		assertWholeScrapes(renderer, output, FallbackReason.FAMILY_OF_MORE_THAN_ONE_SOURCE, 2, "queue_size");
	}

	@Test
	void collectorsNotToldApart(CapturedOutput output) {
		PrometheusRegistry shared = new PrometheusRegistry();
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, shared,
				new FrozenClock());
		Counter.builder("requests").register(registry).increment();
		PrometheusMeterRegistry other = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, shared,
				new FrozenClock());
		Counter.builder("other").register(other).increment(2);
		DirectRenderer renderer = renderer(registry);
		scrapeTwiceEach(renderer, registry, TEXT);
		assertWholeScrapes(renderer, output, FallbackReason.COLLECTORS_NOT_TOLD_APART, 2, null);
	}

	@Test
	void collectorsOutsideMicrometerAreReportedAtInfoLevel(CapturedOutput output) {
		PrometheusMeterRegistry registry = registry(null);
		Counter.builder("requests").register(registry).increment();
		Collector outside = () -> GaugeSnapshot.builder()
			.name("outside_micrometer")
			.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(3).build())
			.build();
		registry.getPrometheusRegistry().register(outside);
		DirectRenderer renderer = renderer(registry);
		scrapeTwiceEach(renderer, registry, TEXT, OPENMETRICS);
		assertFamilies(renderer, output, FallbackReason.COLLECTORS_OUTSIDE_MICROMETER, 4, "outside_micrometer");
	}

	@Test
	void nameEscaped(CapturedOutput output) {
		PrometheusMeterRegistry registry = registry(null);
		Counter.builder("requests").register(registry).increment();
		// A base unit with a slash: a_b_c_kb/s
		Counter.builder("a.b.c").baseUnit("kb/s").register(registry).increment();
		DirectRenderer renderer = renderer(registry);
		scrapeTwiceEach(renderer, registry, TEXT, OPENMETRICS);
		assertFamilies(renderer, output, FallbackReason.NAME_ESCAPED, 4, "a_b_c_kb/s");
	}

	@Test
	void labelNameEscaped(CapturedOutput output) {
		PrometheusMeterRegistry registry = registry(null);
		// Tag keys as they are: a.b is not a label name client_java leaves alone.
		registry.config().namingConvention(NamingConvention.identity);
		Counter.builder("requests").register(registry).increment();
		Counter.builder("sizes").tag("a.b", "x").register(registry).increment();
		DirectRenderer renderer = renderer(registry);
		scrapeTwiceEach(renderer, registry, TEXT, OPENMETRICS);
		assertFamilies(renderer, output, FallbackReason.LABEL_NAME_ESCAPED, 4, "sizes");
	}

	@Test
	void reservedLabel(CapturedOutput output) {
		PrometheusMeterRegistry registry = registry(null);
		Counter.builder("requests").register(registry).increment();
		Timer.builder("checkout").tag("quantile", "x").register(registry);
		DirectRenderer renderer = renderer(registry);
		scrapeTwiceEach(renderer, registry, TEXT, OPENMETRICS);
		assertFamilies(renderer, output, FallbackReason.RESERVED_LABEL, 4, "checkout_seconds");
	}

	@Test
	void tagKeysCollide(CapturedOutput output) {
		PrometheusMeterRegistry registry = registry(null);
		Counter.builder("requests").register(registry).increment();
		try {
			Counter.builder("jobs").tag("a.b", "x").tag("a_b", "y").register(registry).increment();
		}
		catch (IllegalArgumentException ex) {
			// Micrometer 1.18 refuses such a meter when it is registered: the reason
			// cannot arise there.
			Assumptions.assumeFalse(MICROMETER_1_18_OR_LATER, "Micrometer 1.18 refuses the meter: " + ex.getMessage());
			throw ex;
		}
		DirectRenderer renderer = renderer(registry);
		scrapeTwiceEach(renderer, registry, TEXT, OPENMETRICS);
		assertFamilies(renderer, output, FallbackReason.TAG_KEYS_COLLIDE, 4, "jobs");
	}

	@Test
	void metersDisagree(CapturedOutput output) {
		PrometheusMeterRegistry registry = registry(null);
		Counter.builder("requests").register(registry).increment();
		Counter.builder("batch").tag("queue", "a").register(registry);
		Counter.builder("batch").tag("region", "b").register(registry).increment();
		DirectRenderer renderer = renderer(registry);
		scrapeTwiceEach(renderer, registry, TEXT, OPENMETRICS);
		assertFamilies(renderer, output, FallbackReason.METERS_DISAGREE, 4, "batch");
	}

	@Test
	void familyNameTaken(CapturedOutput output) {
		PrometheusMeterRegistry registry = registry(null);
		// Made first, so that the index sees the meters in the order they come.
		DirectRenderer renderer = renderer(registry);
		Gauge.builder("checkout.seconds.max", () -> 2.0).register(registry);
		// Its families are checkout_seconds and checkout_seconds_max, the gauge's.
		Timer.builder("checkout").register(registry);
		// With only the timer's own family included, the scrape can be merged.
		scrapeTwiceEach(renderer, registry, Set.of("checkout_seconds"), TEXT, OPENMETRICS);
		// Spring Boot's bytes either way (above); Micrometer 1.18, whose filtered scrapes
		// collect only the collectors that described an included family when they were
		// registered, gives that scrape without the fallback.
		Assumptions.assumeFalse(MICROMETER_1_18_OR_LATER, "Micrometer 1.18: no fallback needed");
		assertFamilies(renderer, output, FallbackReason.FAMILY_NAME_TAKEN, 4, "checkout_seconds");
	}

	@Test
	void customMetersBefore1167(CapturedOutput output) {
		PrometheusMeterRegistry registry = registry(null);
		Counter.builder("requests").register(registry).increment();
		Meter.builder("pool", Meter.Type.OTHER, List.of(new Measurement(() -> 4.0, Statistic.COUNT)))
			.register(registry);
		// As on a Micrometer that reads the clock for custom meters at every scrape.
		DirectRenderer renderer = renderer(registry, new MicrometerInternals(registry), new ExemplarLocator(), false);
		scrapeTwiceEach(renderer, registry, TEXT, OPENMETRICS);
		assertFamilies(renderer, output, FallbackReason.CUSTOM_METERS_BEFORE_1_16_7, 4, "pool");
	}

	@Test
	void meterNotWrittenDirectly(CapturedOutput output) {
		PrometheusMeterRegistry registry = registry(null);
		// Made first, so that the index sees the meters in the order they come.
		DirectRenderer renderer = renderer(registry);
		Counter.builder("requests").register(registry).increment();
		// A custom meter of no measurement, which the direct path does not write, leaves
		// its name to the reference path, also for the meter that has one (a meter of no
		// measurement alone writes nothing).
		Meter.builder("pool", Meter.Type.OTHER, List.of()).tag("k", "a").register(registry);
		Meter.builder("pool", Meter.Type.OTHER, List.of(new Measurement(() -> 4.0, Statistic.VALUE)))
			.tag("k", "b")
			.register(registry);
		scrapeTwiceEach(renderer, registry, TEXT, OPENMETRICS);
		assertFamilies(renderer, output, FallbackReason.METER_NOT_WRITTEN_DIRECTLY, 4, "pool");
	}

	@Test
	void meterExemplarsNotReadable(CapturedOutput output) {
		PrometheusMeterRegistry registry = registry(new SampledSpan());
		Counter.builder("requests").register(registry).increment();
		Counter.builder("traced").register(registry).increment();
		// A locator that finds the sampler's configuration where its exemplars should be,
		// as it would if the field had changed.
		DirectRenderer renderer = renderer(registry, new MicrometerInternals(registry),
				new ExemplarLocator(InternalMember.SAMPLER_CONFIG), true);
		scrapeTwiceEach(renderer, registry, OPENMETRICS, PROTOBUF);
		assertThat(renderer.directScrapes()).isEqualTo(4);
		assertFamilies(renderer, output, FallbackReason.METER_EXEMPLARS_NOT_READABLE, 8, "requests", "traced");
	}

	private void scrapeTwiceEach(DirectRenderer renderer, PrometheusMeterRegistry registry,
			PrometheusOutputFormat... formats) {
		scrapeTwiceEach(renderer, registry, null, formats);
	}

	private void scrapeTwiceEach(DirectRenderer renderer, PrometheusMeterRegistry registry, @Nullable Set<String> names,
			PrometheusOutputFormat... formats) {
		PrometheusScrapeEndpoint boot = new PrometheusScrapeEndpoint(registry.getPrometheusRegistry(), PROPERTIES);
		for (PrometheusOutputFormat format : formats) {
			for (int i = 0; i < 2; i++) {
				assertSameAsSpringBoot(renderer, boot, format, names);
			}
		}
	}

	private void assertSameAsSpringBoot(DirectRenderer renderer, PrometheusScrapeEndpoint boot,
			PrometheusOutputFormat format, @Nullable Set<String> names) {
		Throwable failure = catchThrowable(() -> boot.scrape(format, names));
		if (failure != null) {
			// Spring Boot's endpoint fails such a scrape: so must the starter.
			ChunkedOutput buffer = new ChunkedOutput(this.pool, BodyKind.of(format, names), 0);
			assertThatExceptionOfType(failure.getClass()).isThrownBy(() -> renderer.render(format, names, buffer))
				.withMessage(failure.getMessage());
			buffer.discard();
			return;
		}
		try {
			SpringBootsBytes.assertSame(renderer, boot, this.pool, format, names);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static void assertWholeScrapes(DirectRenderer renderer, CapturedOutput output, FallbackReason reason,
			long scrapes, @Nullable String family) {
		assertThat(reason.isWholeScrape()).isTrue();
		assertLoggedOnce(output, reason, (family != null) ? new String[] { "family " + family } : new String[0]);
		CardinalityReport report = renderer.cardinality();
		assertThat(report).isNotNull();
		assertThat(report.wholeScrapeFallbacks()).isEqualTo(scrapes);
		assertThat(report.wholeScrapeFallbackReasons()).containsExactly(Map.entry(reason.text(), scrapes));
		assertThat(report.familyFallbackReasons()).isEmpty();
	}

	private static void assertFamilies(DirectRenderer renderer, CapturedOutput output, FallbackReason reason,
			long families, String... names) {
		assertThat(reason.isWholeScrape()).isFalse();
		assertLoggedOnce(output, reason, names);
		assertThat(renderer.wholeScrapeFallbacks()).isZero();
		assertThat(renderer.familyFallbacks()).isEqualTo(families);
		CardinalityReport report = renderer.cardinality();
		assertThat(report).isNotNull();
		assertThat(report.wholeScrapeFallbackReasons()).isEmpty();
		assertThat(report.familyFallbacks()).isEqualTo(families);
		assertThat(report.familyFallbackReasons()).containsExactly(Map.entry(reason.text(), families));
	}

	private static void assertLoggedOnce(CapturedOutput output, FallbackReason reason, String... names) {
		List<String> lines = output.getAll().lines().filter((line) -> line.contains(reason.text())).toList();
		assertThat(lines).hasSize(1);
		String line = lines.get(0);
		assertThat(line).contains(reason.warns() ? "WARN" : "INFO")
			.contains(FallbackPolicy.class.getSimpleName())
			.contains("What to do: " + reason.remedy());
		for (String name : names) {
			assertThat(line).contains(name);
		}
	}

	private static PrometheusMeterRegistry registry(@Nullable SpanContext spanContext) {
		return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, new PrometheusRegistry(), new FrozenClock(),
				spanContext);
	}

	private static DirectRenderer renderer(PrometheusMeterRegistry registry) {
		return new DirectRenderer(registry, PrometheusConfig.DEFAULT, PROPERTIES,
				new ReferenceRenderer(registry.getPrometheusRegistry(), PROPERTIES), Long.MAX_VALUE);
	}

	private static DirectRenderer renderer(PrometheusMeterRegistry registry, MicrometerInternals internals,
			@Nullable ExemplarLocator locator, boolean customMeters) {
		return new DirectRenderer(registry, PrometheusConfig.DEFAULT, PROPERTIES,
				new ReferenceRenderer(registry.getPrometheusRegistry(), PROPERTIES), Long.MAX_VALUE, internals, locator,
				customMeters);
	}

	private static boolean isMicrometer118OrLater() {
		String version = PrometheusMeterRegistry.class.getPackage().getImplementationVersion();
		if (version == null) {
			return false;
		}
		String[] parts = version.split("[.-]");
		return Integer.parseInt(parts[0]) > 1 || (Integer.parseInt(parts[0]) == 1 && Integer.parseInt(parts[1]) >= 18);
	}

}
