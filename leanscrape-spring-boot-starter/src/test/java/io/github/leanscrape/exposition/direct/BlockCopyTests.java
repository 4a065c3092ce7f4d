package io.github.leanscrape.exposition.direct;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.RenderInputs;
import io.github.leanscrape.exposition.reference.ReferenceRenderer;
import io.github.leanscrape.support.FrozenClock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A text rendering offered the last body of its kind, or of the other text format, copies
 * the blocks of series whose values did not change and that both formats write alike,
 * writes the others, and sends Spring Boot's bytes either way.
 */
class BlockCopyTests {

	private static final PrometheusOutputFormat OPENMETRICS = PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100;

	private final ChunkPool pool = new ChunkPool(1024, 1 << 20);

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
			new PrometheusRegistry(), new FrozenClock());

	private final Properties properties = PrometheusConfig.DEFAULT.prometheusProperties();

	private final PrometheusScrapeEndpoint boot = new PrometheusScrapeEndpoint(this.registry.getPrometheusRegistry(),
			this.properties);

	private final List<Counter> counters = new ArrayList<>();

	private final AtomicInteger gaugeValue = new AtomicInteger(7);

	private @Nullable PooledBody last;

	BlockCopyTests() {
		// Three blocks of counters, a gauge, a timer histogram and a summary.
		for (int i = 0; i < 3 * ScrapeWorkspace.VALUE_BLOCK; i++) {
			this.counters.add(Counter.builder("jobs.done").tag("job", "job-" + i).register(this.registry));
		}
		Gauge.builder("queue.size", this.gaugeValue, AtomicInteger::get).register(this.registry);
		Timer.builder("calls").publishPercentileHistogram().register(this.registry).record(Duration.ofMillis(3));
		DistributionSummary.builder("payload").publishPercentiles(0.5, 0.9).register(this.registry).record(12);
	}

	@AfterEach
	void releaseTheLastBody() {
		if (this.last != null) {
			this.last.release();
		}
		assertThat(this.pool.chunksInUse()).isZero();
	}

	@Test
	void aScrapeAfterNoChangeCopiesEveryBlockAndWritesNone() throws Exception {
		DirectRenderer renderer = renderer();
		render(renderer, OPENMETRICS);
		// Offered a body without a record (nothing was kept before it): it records.
		render(renderer, OPENMETRICS);
		assertThat(renderer.copiedBlocks()).isZero();
		render(renderer, OPENMETRICS);
		// Three blocks of counters, one of gauges, the histogram's series (and the
		// timer's _max, written apart) and the summary's.
		assertThat(renderer.copiedBlocks()).isEqualTo(3 + 1 + 1 + 1);
	}

	@Test
	void aBlockWithAChangedValueIsWrittenTheOthersCopied() throws Exception {
		DirectRenderer renderer = renderer();
		render(renderer, OPENMETRICS);
		render(renderer, OPENMETRICS);
		this.counters.get(ScrapeWorkspace.VALUE_BLOCK + 3).increment();
		this.gaugeValue.set(8);
		render(renderer, OPENMETRICS);
		assertThat(renderer.copiedBlocks()).isEqualTo(2 + 0 + 1 + 1);
	}

	@Test
	void aBodyOfTheOtherTextFormatIsCopiedFromBothWays() throws Exception {
		DirectRenderer renderer = renderer();
		render(renderer, PrometheusOutputFormat.CONTENT_TYPE_004);
		// Offered a body without a record: it records.
		render(renderer, OPENMETRICS);
		assertThat(renderer.copiedBlocks()).isZero();
		// Every block is written alike in both formats: the text body copies them all
		// from the OpenMetrics one, and the next OpenMetrics body from the text one.
		render(renderer, PrometheusOutputFormat.CONTENT_TYPE_004);
		assertThat(renderer.copiedBlocks()).isEqualTo(3 + 1 + 1 + 1);
		this.counters.get(0).increment();
		render(renderer, OPENMETRICS);
		assertThat(renderer.copiedBlocks()).isEqualTo(2 * (3 + 1 + 1 + 1) - 1);
	}

	@Test
	void withCreatedTimestampsOnlyBlocksWrittenAlikeAreCopiedAcrossFormats() throws Exception {
		Properties properties = PrometheusConfig.DEFAULT.prometheusProperties();
		properties.setProperty("io.prometheus.exporter.includeCreatedTimestamps", "true");
		PrometheusConfig config = SpringBootsBytes.config(properties);
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(config, new PrometheusRegistry(),
				new FrozenClock());
		Counter.builder("jobs.done").register(registry).increment();
		Gauge.builder("queue.size", this.gaugeValue, AtomicInteger::get).register(registry);
		Timer.builder("calls").publishPercentileHistogram().register(registry).record(Duration.ofMillis(3));
		DistributionSummary.builder("payload").publishPercentiles(0.5).register(registry).record(12);
		PrometheusScrapeEndpoint boot = new PrometheusScrapeEndpoint(registry.getPrometheusRegistry(), properties);
		DirectRenderer renderer = new DirectRenderer(registry, config, properties,
				new ReferenceRenderer(registry.getPrometheusRegistry(), properties), Long.MAX_VALUE);
		for (int i = 0; i < 3; i++) {
			render(renderer, boot, OPENMETRICS);
		}
		assertThat(renderer.copiedBlocks()).isEqualTo(1 + 1 + 1 + 1);
		// OpenMetrics has each series' _created line inline, text 0.0.4 in families of
		// their own at the end: of the counter, histogram and summary blocks, the values
		// recorded differ, and only the gauge's is copied.
		render(renderer, boot, PrometheusOutputFormat.CONTENT_TYPE_004);
		assertThat(renderer.copiedBlocks()).isEqualTo(4 + 1);
		render(renderer, boot, OPENMETRICS);
		assertThat(renderer.copiedBlocks()).isEqualTo(4 + 1 + 1);
	}

	@Test
	void aBodyOfAnotherRendererIsNotCopiedFrom() throws Exception {
		DirectRenderer other = renderer();
		render(other, OPENMETRICS);
		render(other, OPENMETRICS);
		DirectRenderer renderer = renderer();
		render(renderer, OPENMETRICS);
		assertThat(renderer.copiedBlocks()).isZero();
	}

	@Test
	void metersAddedAndRemovedLeaveTheOtherBlocksCopied() throws Exception {
		DirectRenderer renderer = renderer();
		render(renderer, OPENMETRICS);
		render(renderer, OPENMETRICS);
		Counter.builder("aaa.first").register(this.registry).increment();
		this.registry.remove(this.counters.get(0));
		render(renderer, OPENMETRICS);
		// The first block of jobs_done lost a series, which moved every block of the
		// family: the gauge, histogram and summary are still copied.
		assertThat(renderer.copiedBlocks()).isGreaterThanOrEqualTo(3);
	}

	@Test
	void aSeriesAddedToAFamilyLeavesItsBlocksBeforeTheNewSeriesCopied() throws Exception {
		DirectRenderer renderer = renderer();
		render(renderer, OPENMETRICS);
		render(renderer, OPENMETRICS);
		long copied = renderer.copiedBlocks();
		// After every other series of jobs_done: its three blocks hold the same series
		// in a new array, and the new series starts a fourth.
		Counter.builder("jobs.done").tag("job", "zzz").register(this.registry);
		render(renderer, OPENMETRICS);
		assertThat(renderer.copiedBlocks() - copied).isEqualTo(3 + 1 + 1 + 1);
		copied = renderer.copiedBlocks();
		// Before every other: each series moves one place, no block of the family is the
		// same.
		Counter.builder("jobs.done").tag("job", "aaa").register(this.registry);
		render(renderer, OPENMETRICS);
		assertThat(renderer.copiedBlocks() - copied).isEqualTo(1 + 1 + 1);
	}

	@Test
	void theBlocksAfterALargeFamilyRemovedAreCopied() throws Exception {
		// More blocks than are looked at past the one expected: found by their names.
		List<Counter> large = new ArrayList<>();
		for (int i = 0; i < 65 * ScrapeWorkspace.VALUE_BLOCK; i++) {
			large.add(Counter.builder("big.family").tag("n", "n" + i).register(this.registry));
		}
		DirectRenderer renderer = renderer();
		render(renderer, OPENMETRICS);
		render(renderer, OPENMETRICS);
		long copied = renderer.copiedBlocks();
		for (Counter counter : large) {
			this.registry.remove(counter);
		}
		render(renderer, OPENMETRICS);
		assertThat(renderer.copiedBlocks() - copied).isEqualTo(3 + 1 + 1 + 1);
	}

	@Test
	void aValueFromZeroToNegativeZeroAGaugeAndALongTaskTimerAreWrittenAgain() throws Exception {
		double[] level = { 0.0 };
		Gauge.builder("level", level, (holder) -> holder[0]).register(this.registry);
		LongTaskTimer tasks = LongTaskTimer.builder("tasks").register(this.registry);
		DirectRenderer renderer = renderer();
		render(renderer, OPENMETRICS);
		render(renderer, OPENMETRICS);
		long copied = renderer.copiedBlocks();
		// 0.0 and -0.0 are equal as doubles, and print differently: compared by their
		// bits, the block is written again, and the bytes are Spring Boot's.
		level[0] = -0.0;
		LongTaskTimer.Sample task = tasks.start();
		this.gaugeValue.set(9);
		render(renderer, OPENMETRICS);
		// Of the counters, histogram and summary, copied; of the three gauges and the
		// long task timer, written.
		assertThat(renderer.copiedBlocks() - copied).isEqualTo(3 + 1 + 1);
		task.stop();
		render(renderer, OPENMETRICS);
		level[0] = 0.0;
		render(renderer, OPENMETRICS);
	}

	@Test
	void aBodyThatWillBeKeptRecordsWithNothingToCopyFrom() throws Exception {
		DirectRenderer renderer = renderer();
		ChunkedOutput output = new ChunkedOutput(this.pool, BodyKind.of(OPENMETRICS, null), 0);
		renderer.render(OPENMETRICS, null, output, new RenderInputs(null, true));
		this.last = output.toBody();
		assertThat(this.last.record()).isNotNull();
		render(renderer, OPENMETRICS);
		assertThat(renderer.copiedBlocks()).isEqualTo(3 + 1 + 1 + 1);
	}

	@Test
	void aScrapeOfferedNoBodyRecordsNothing() throws Exception {
		DirectRenderer renderer = renderer();
		ChunkedOutput output = new ChunkedOutput(this.pool, BodyKind.of(OPENMETRICS, null), 0);
		renderer.render(OPENMETRICS, null, output);
		PooledBody body = output.toBody();
		try {
			assertThat(body.record()).isNull();
		}
		finally {
			body.release();
		}
	}

	private DirectRenderer renderer() {
		return new DirectRenderer(this.registry, PrometheusConfig.DEFAULT, this.properties,
				new ReferenceRenderer(this.registry.getPrometheusRegistry(), this.properties), Long.MAX_VALUE);
	}

	/**
	 * Render a scrape offered the last body, assert that its bytes are Spring Boot's, and
	 * keep it as the last body.
	 */
	private void render(DirectRenderer renderer, PrometheusOutputFormat format) throws Exception {
		render(renderer, this.boot, format);
	}

	private void render(DirectRenderer renderer, PrometheusScrapeEndpoint boot, PrometheusOutputFormat format)
			throws Exception {
		ChunkedOutput output = new ChunkedOutput(this.pool, BodyKind.of(format, null), 0);
		renderer.render(format, null, output, new RenderInputs(this.last, false));
		PooledBody body = output.toBody();
		SpringBootsBytes.assertSameBytes(body.toByteArray(), boot.scrape(format, null).getBody(), format, null);
		if (this.last != null) {
			this.last.release();
		}
		this.last = body;
	}

}
