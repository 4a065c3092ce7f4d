package io.github.leanscrape.serve;

import java.util.concurrent.TimeUnit;

import io.github.leanscrape.compression.BodyEncoder;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.FormatNames;
import io.github.leanscrape.exposition.RenderStatistics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * The starter's own metrics, in a Micrometer registry: {@code leanscrape.scrapes} (tags
 * {@code format}, {@code outcome}), {@code leanscrape.scrape.duration},
 * {@code leanscrape.scrape.body} and {@code leanscrape.scrape.sent} (bytes, uncompressed
 * and as sent), {@code leanscrape.buffer.retained}, {@code leanscrape.buffer.leased} and
 * {@code leanscrape.buffer.leased.peak}, {@code leanscrape.renders.in.flight}, and
 * {@code leanscrape.fallbacks} (tag {@code scope}). Every meter is registered up front
 * and kept in arrays indexed by format and outcome, so recording a scrape looks nothing
 * up and allocates nothing.
 *
 * @author leanscrape
 */
public final class MicrometerSelfMetrics implements SelfMetrics {

	private static final PrometheusOutputFormat[] FORMATS = PrometheusOutputFormat.values();

	private static final String FALLBACKS_DESCRIPTION = "Work the direct path left to the reference path: "
			+ "whole scrapes (scope scrape) and families inside its scrapes (scope family)";

	private static final Outcome[] OUTCOMES = Outcome.values();

	private final Counter[][] scrapes = new Counter[FORMATS.length][OUTCOMES.length];

	private final Timer[] durations = new Timer[FORMATS.length];

	private final DistributionSummary body;

	private final DistributionSummary sent;

	/**
	 * Register the meters.
	 * @param registry the registry to register them in
	 * @param scraper the scraper whose renderings are watched
	 * @param pool the pool of output chunks
	 * @param statistics what the renderer tells of its fallbacks, or {@code null} when it
	 * tells nothing
	 */
	public MicrometerSelfMetrics(MeterRegistry registry, Scraper scraper, ChunkPool pool,
			@Nullable RenderStatistics statistics) {
		for (PrometheusOutputFormat format : FORMATS) {
			String formatTag = FormatNames.of(format);
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
		this.body = DistributionSummary.builder("leanscrape.scrape.body")
			.description("Size of scrape bodies before compression")
			.baseUnit("bytes")
			.register(registry);
		this.sent = DistributionSummary.builder("leanscrape.scrape.sent")
			.description("Size of scrape bodies as sent, after compression")
			.baseUnit("bytes")
			.register(registry);
		Gauge.builder("leanscrape.buffer.retained", pool, ChunkPool::retainedBytes)
			.description("Free output chunks kept between scrapes")
			.baseUnit("bytes")
			.register(registry);
		Gauge.builder("leanscrape.buffer.leased", pool, (p) -> (double) p.leasedChunks() * p.chunkSize())
			.description("Output chunks held by scrape bodies now")
			.baseUnit("bytes")
			.register(registry);
		Gauge.builder("leanscrape.buffer.leased.peak", pool, (p) -> (double) p.peakLeasedChunks() * p.chunkSize())
			.description("Most output chunks ever held by scrape bodies at once")
			.baseUnit("bytes")
			.register(registry);
		Gauge.builder("leanscrape.renders.in.flight", scraper, Scraper::rendersInFlight)
			.description("Scrape renderings running now")
			.register(registry);
		Gauge.builder("leanscrape.compression.kept", scraper, (s) -> (double) s.keptChunks() * pool.chunkSize())
			.description("Bodies and their compressed forms kept to reuse what did not change in the next scrape")
			.baseUnit("bytes")
			.register(registry);
		for (BodyEncoder encoder : scraper.encoders()) {
			String coding = encoder.coding().token();
			FunctionCounter.builder("leanscrape.compression.segments", encoder, BodyEncoder::segmentsCompressed)
				.description("Segments of scrape bodies compressed, or sent compressed as they were for the last body")
				.tags("coding", coding, "outcome", "compressed")
				.register(registry);
			FunctionCounter.builder("leanscrape.compression.segments", encoder, BodyEncoder::segmentsReused)
				.description("Segments of scrape bodies compressed, or sent compressed as they were for the last body")
				.tags("coding", coding, "outcome", "reused")
				.register(registry);
		}
		if (statistics != null) {
			// One description for both: meters of one name that disagree would make their
			// family go to Spring Boot's path (and its HELP line be the first one's).
			FunctionCounter.builder("leanscrape.fallbacks", statistics, RenderStatistics::wholeScrapeFallbacks)
				.description(FALLBACKS_DESCRIPTION)
				.tag("scope", "scrape")
				.register(registry);
			FunctionCounter.builder("leanscrape.fallbacks", statistics, RenderStatistics::familyFallbacks)
				.description(FALLBACKS_DESCRIPTION)
				.tag("scope", "family")
				.register(registry);
		}
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
