package io.github.leanscrape.exposition.direct;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.reference.ReferenceRenderer;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Custom meters ({@code Meter.builder}), written directly: a series per measurement,
 * labelled with its statistic, in the family of its statistic, against Spring Boot's
 * endpoint on the same registry while values move, the clock moves (created timestamps
 * stay those of registration) and meters come and go.
 */
class DirectCustomMeterTests {

	private static final Properties PROPERTIES = PrometheusConfig.DEFAULT.prometheusProperties();

	private final ChunkPool pool = new ChunkPool(4096, 1 << 20);

	@Test
	void customMetersAreSpringBoots() throws Exception {
		MockClock clock = new MockClock();
		clock.add(Duration.ofMillis(123_456_789));
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
				new PrometheusRegistry(), clock);
		AtomicLong value = new AtomicLong(7);
		Meter first = register(registry, "pool", value, "pool", "a");
		clock.add(Duration.ofMillis(1));
		register(registry, "pool", value, "pool", "b \"quoted\"\n");
		Meter.builder("queue.depth", Meter.Type.GAUGE, List.of(new Measurement(value::get, Statistic.VALUE)))
			.baseUnit("items")
			.description("Depth of the \\ queue")
			.register(registry);
		Meter
			.builder("requests.total", Meter.Type.COUNTER,
					List.of(new Measurement(() -> 3.0, Statistic.COUNT),
							new Measurement(() -> 0.25, Statistic.TOTAL_TIME)))
			.tag("uri", "/ü")
			.register(registry);
		DirectRenderer renderer = renderer(registry);
		PrometheusScrapeEndpoint boot = new PrometheusScrapeEndpoint(registry.getPrometheusRegistry(), PROPERTIES);
		assertAllFormats(renderer, boot);
		value.set(11);
		clock.add(Duration.ofSeconds(5));
		register(registry, "pool", value, "pool", "c");
		assertAllFormats(renderer, boot);
		registry.remove(first);
		clock.add(Duration.ofSeconds(5));
		assertAllFormats(renderer, boot);
		String text = new String(boot.scrape(PrometheusOutputFormat.CONTENT_TYPE_004, null).getBody(),
				StandardCharsets.UTF_8);
		assertThat(text).contains("pool_sum_total{pool=\"c\",statistic=\"TOTAL\"} ")
			.contains("pool_sum_total{pool=\"c\",statistic=\"TOTAL_TIME\"} ")
			.contains("pool_value{pool=\"c\",statistic=\"UNKNOWN\"} ")
			.contains("queue_depth_items_value{statistic=\"VALUE\"} 11.0");
		assertThat(renderer.wholeScrapeFallbacks()).isZero();
		if (CustomStatistics.CREATED_ONCE) {
			assertThat(renderer.familyFallbacks()).isZero();
		}
		else {
			// Micrometer takes a custom counter's created timestamp at every scrape:
			// left to its collector.
			assertThat(renderer.familyFallbacks()).isPositive();
		}
	}

	@Test
	void aCustomMeterWithTwoMeasurementsOfOneStatisticFailsAsSpringBootsEndpointFails() throws Exception {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
				new PrometheusRegistry(), new MockClock());
		Meter
			.builder("twice", Meter.Type.OTHER,
					List.of(new Measurement(() -> 1.0, Statistic.COUNT), new Measurement(() -> 2.0, Statistic.COUNT)))
			.register(registry);
		Meter.Builder tagged = Meter
			.builder("statistic.tagged", Meter.Type.OTHER, List.of(new Measurement(() -> 1.0, Statistic.VALUE)))
			.tag("statistic", "mine");
		try {
			tagged.register(registry);
		}
		catch (IllegalArgumentException ex) {
			// Micrometer 1.18 refuses such a meter when it is registered (1.17 registers
			// it
			// and fails every scrape): either way, both endpoints must answer alike.
		}
		DirectRenderer renderer = renderer(registry);
		PrometheusScrapeEndpoint boot = new PrometheusScrapeEndpoint(registry.getPrometheusRegistry(), PROPERTIES);
		for (PrometheusOutputFormat format : PrometheusOutputFormat.values()) {
			byte[] expected;
			try {
				expected = boot.scrape(format, null).getBody();
			}
			catch (RuntimeException ex) {
				expected = null;
			}
			if (expected != null) {
				SpringBootsBytes.assertSame(renderer, boot, this.pool, format, null);
			}
			else {
				assertThatException()
					.isThrownBy(() -> SpringBootsBytes.assertSame(renderer, boot, this.pool, format, null));
			}
		}
	}

	@Test
	void customMetersAreWrittenDirectlyFromTheMicrometerVersionsThatTakeTheirCreatedTimestampsOnce() {
		assertThat(CustomStatistics.createdOnce("1.17.1")).isTrue();
		assertThat(CustomStatistics.createdOnce("1.16.7")).isTrue();
		assertThat(CustomStatistics.createdOnce("1.18.0-M1")).isTrue();
		assertThat(CustomStatistics.createdOnce("2.0.0")).isTrue();
		assertThat(CustomStatistics.createdOnce("1.17.0")).isFalse();
		assertThat(CustomStatistics.createdOnce("1.16.5")).isFalse();
		assertThat(CustomStatistics.createdOnce("1.15.9")).isFalse();
		assertThat(CustomStatistics.createdOnce("unknown")).isFalse();
		assertThat(CustomStatistics.createdOnce(null)).isFalse();
	}

	private static DirectRenderer renderer(PrometheusMeterRegistry registry) {
		return new DirectRenderer(registry, PrometheusConfig.DEFAULT, PROPERTIES,
				new ReferenceRenderer(registry.getPrometheusRegistry(), PROPERTIES), Long.MAX_VALUE);
	}

	private static Meter register(PrometheusMeterRegistry registry, String name, AtomicLong value, String... tags) {
		List<Measurement> measurements = Arrays.asList(new Measurement(() -> value.get() * 2.0, Statistic.COUNT),
				new Measurement(value::get, Statistic.TOTAL),
				new Measurement(() -> value.get() / 4.0, Statistic.TOTAL_TIME),
				new Measurement(() -> 9.5, Statistic.MAX), new Measurement(value::get, Statistic.VALUE),
				new Measurement(() -> Double.NaN, Statistic.UNKNOWN),
				new Measurement(() -> 2.0, Statistic.ACTIVE_TASKS), new Measurement(() -> 1.5, Statistic.DURATION));
		return Meter.builder(name, Meter.Type.OTHER, measurements)
			.description("A pool's \"custom\" meter")
			.tags(tags)
			.register(registry);
	}

	private void assertAllFormats(DirectRenderer renderer, PrometheusScrapeEndpoint boot) throws Exception {
		for (Set<String> names : Arrays.asList(null, Set.of("pool", "queue_depth_items_value"),
				Set.of("pool_sum", "requests"))) {
			for (PrometheusOutputFormat format : PrometheusOutputFormat.values()) {
				SpringBootsBytes.assertSame(renderer, boot, this.pool, format, names);
			}
		}
	}

}
