package io.github.leanscrape.metrics;

import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

import io.github.leanscrape.compression.BodyEncoder;
import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.direct.RenderStatistics;
import io.github.leanscrape.serve.Outcome;
import io.github.leanscrape.serve.Scraper;
import io.github.leanscrape.serve.SelfMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * The starter's own {@code leanscrape.*} metrics in a Micrometer registry. Every meter is
 * registered up front, in arrays indexed by format and outcome, so that recording a
 * scrape looks nothing up and allocates nothing.
 *
 * @author leanscrape
 */
public final class MicrometerSelfMetrics implements SelfMetrics {

	private static final PrometheusOutputFormat[] FORMATS = PrometheusOutputFormat.values();

	private static final Outcome[] OUTCOMES = Outcome.values();

	// Meters of one name share a description: if they disagreed, their family would go
	// to Spring Boot's path (and its HELP line be the first one's).
	private static final String SEGMENTS_DESCRIPTION = "Segments of scrape bodies compressed, "
			+ "or sent compressed as they were for the last body";

	private static final String FALLBACKS_DESCRIPTION = "Work the direct path left to the reference path: "
			+ "whole scrapes (scope scrape) and families inside its scrapes (scope family)";

	private final Counter[][] scrapes = new Counter[FORMATS.length][OUTCOMES.length];

	private final Timer[] durations = new Timer[FORMATS.length];

	private final DistributionSummary body;

	private final DistributionSummary sent;

	/**
	 * Register the meters.
	 * @param registry the registry to register them in
	 * @param scraper the scraper whose renderings are watched
	 * @param pool the pool of output chunks
	 * @param statistics the renderer's fallback counts, or {@code null}
	 */
	public MicrometerSelfMetrics(MeterRegistry registry, Scraper scraper, ChunkPool pool,
			@Nullable RenderStatistics statistics) {
		for (PrometheusOutputFormat format : FORMATS) {
			String formatTag = BodyKind.formatName(format);
			for (Outcome outcome : OUTCOMES) {
				this.scrapes[format.ordinal()][outcome.ordinal()] = Counter.builder("leanscrape.scrapes")
					.description("Scrape requests served by the leanscrape endpoint")
					.tag("format", formatTag)
					.tag("outcome", outcome.tag())
					.register(registry);
			}
			this.durations[format.ordinal()] = Timer.builder("leanscrape.scrape.duration")
				.description("Time from a scrape request reaching the endpoint to the end of its response")
				.tag("format", formatTag)
				.register(registry);
		}
		this.body = bytesSummary(registry, "leanscrape.scrape.body", "Size of scrape bodies before compression");
		this.sent = bytesSummary(registry, "leanscrape.scrape.sent",
				"Size of scrape bodies as sent, after compression");
		bytesGauge(registry, "leanscrape.buffer.retained", "Free output chunks kept between scrapes", pool,
				ChunkPool::retainedBytes);
		bytesGauge(registry, "leanscrape.buffer.in.use", "Output chunks held by scrape bodies now", pool,
				(p) -> (double) p.chunksInUse() * p.chunkSize());
		bytesGauge(registry, "leanscrape.buffer.in.use.peak", "Most output chunks ever held by scrape bodies at once",
				pool, (p) -> (double) p.peakChunksInUse() * p.chunkSize());
		Gauge.builder("leanscrape.renders.in.flight", scraper, Scraper::rendersInFlight)
			.description("Scrape renderings running now")
			.register(registry);
		bytesGauge(registry, "leanscrape.compression.kept",
				"Bodies and their compressed forms kept to reuse what did not change in the next scrape", scraper,
				(s) -> (double) s.keptChunks() * pool.chunkSize());
		for (BodyEncoder encoder : scraper.encoders()) {
			String coding = encoder.coding().token();
			count(registry, "leanscrape.compression.segments", SEGMENTS_DESCRIPTION, encoder,
					BodyEncoder::segmentsCompressed, "coding", coding, "outcome", "compressed");
			count(registry, "leanscrape.compression.segments", SEGMENTS_DESCRIPTION, encoder,
					BodyEncoder::segmentsReused, "coding", coding, "outcome", "reused");
		}
		if (statistics != null) {
			count(registry, "leanscrape.fallbacks", FALLBACKS_DESCRIPTION, statistics,
					RenderStatistics::wholeScrapeFallbacks, "scope", "scrape");
			count(registry, "leanscrape.fallbacks", FALLBACKS_DESCRIPTION, statistics,
					RenderStatistics::familyFallbacks, "scope", "family");
		}
	}

	private static DistributionSummary bytesSummary(MeterRegistry registry, String name, String description) {
		return DistributionSummary.builder(name).description(description).baseUnit("bytes").register(registry);
	}

	private static <T> void bytesGauge(MeterRegistry registry, String name, String description, T source,
			ToDoubleFunction<T> bytes) {
		Gauge.builder(name, source, bytes).description(description).baseUnit("bytes").register(registry);
	}

	private static <T> void count(MeterRegistry registry, String name, String description, T source,
			ToDoubleFunction<T> count, String... tags) {
		FunctionCounter.builder(name, source, count).description(description).tags(tags).register(registry);
	}

	@Override
	public void scraped(PrometheusOutputFormat format, Outcome outcome, long durationNanos, long bodyBytes,
			long sentBytes) {
		this.scrapes[format.ordinal()][outcome.ordinal()].increment();
		this.durations[format.ordinal()].record(durationNanos, TimeUnit.NANOSECONDS);
		if (bodyBytes >= 0) {
			this.body.record(bodyBytes);
		}
		if (sentBytes >= 0) {
			this.sent.record(sentBytes);
		}
	}

}
