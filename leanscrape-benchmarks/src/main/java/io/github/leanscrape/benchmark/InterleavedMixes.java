package io.github.leanscrape.benchmark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * Scrapers in turn against two starters on one registry, one reusing what did not change
 * ({@code reuse}) and one formatting and compressing every body whole ({@code whole}),
 * their scrapes interleaved (reuse, whole, whole, reuse, ...), each timed: where
 * {@link ChangingScrapeBenchmark} times one configuration after another, and this
 * machine's speed drifts between them by more than a few percent, pairs of scrapes made a
 * moment apart show an effect of a few percent. Before each scrape a share of the
 * counters changes, as in {@link ChangingScrapeBenchmark}. A scraper asks OpenMetrics, or
 * text where its coding ends in {@code /text} (as VictoriaMetrics does beside a
 * Prometheus: two kinds). A {@code control} row runs the same with both starters
 * formatting whole: how far apart two equal sides read, which differs from mix to mix (a
 * single uncompressed scraper's control has read 1.04).
 * <p>
 * Arguments: the output file, then optionally the series count (100,000), the change
 * ({@code 10-scattered}), the rounds (300, after a quarter as many to warm up) and the
 * mixes, separated by commas (all). Each mix runs on a registry of its own; a row gives,
 * per coding of the mix, the median time of each side, their ratio, the quartiles of the
 * ratio of each pair, and the chunks each side's pool allocated.
 *
 * @author leanscrape
 */
public final class InterleavedMixes {

	private static final String[] MIXES = { "gzip-zstd-identity", "gzip-zstd", "zstd", "identity", "gzip",
			"gzip-gzip/text", "gzip-identity/text", "control:gzip-zstd-identity", "control:zstd", "control:identity" };

	private InterleavedMixes() {
	}

	/**
	 * Run every mix and write the rows.
	 * @param args the output file, then optionally the series count, the change, the
	 * rounds and the mixes
	 * @throws IOException when the output cannot be written
	 */
	public static void main(String[] args) throws IOException {
		Path output = Path.of(args[0]);
		int seriesCount = (args.length > 1) ? Integer.parseInt(args[1]) : 100_000;
		String change = (args.length > 2) ? args[2] : "10-scattered";
		int rounds = (args.length > 3) ? Integer.parseInt(args[3]) : 300;
		List<String> lines = new ArrayList<>();
		lines.add("# interleaved-mixes: " + Instant.now() + ", java " + System.getProperty("java.version") + ", "
				+ Runtime.getRuntime().availableProcessors() + " cores");
		lines.add("# command: ./mvnw -Pjmh -DskipTests -pl leanscrape-benchmarks -am test-compile"
				+ " exec:exec@interleaved-mixes" + ((args.length > 1) ? " \"-Dinterleaved-mixes.args="
						+ String.join(" ", List.of(args).subList(1, args.length)) + "\"" : ""));
		lines.add("# series: " + seriesCount + ", change: " + change + ", rounds: " + rounds
				+ ", OpenMetrics (text where a coding ends in /text), the starter's defaults (zstd in one frame)");
		lines.add("mix\tcoding\treuse_ms\twhole_ms\tratio\tpair_p25\tpair_p50\tpair_p75\tchunks_reuse\tchunks_whole");
		String[] mixes = (args.length > 4) ? args[4].split(",") : MIXES;
		for (String mix : mixes) {
			lines.addAll(run(mix, seriesCount, change, rounds));
			System.out.println(lines.get(lines.size() - 1));
		}
		Files.write(output, lines, StandardCharsets.UTF_8);
	}

	private static List<String> run(String mix, int seriesCount, String change, int rounds) throws IOException {
		boolean control = mix.startsWith("control:");
		String[] codings = (control ? mix.substring("control:".length()) : mix).split("-");
		SyntheticRegistry registry = SyntheticRegistry.build(seriesCount);
		LeanscrapeStarter[] starters = { starter(registry, !control), starter(registry, false) };
		Counter[] changing = ChangingScrapeBenchmark.changingCounters(registry, change);
		CountingSink sink = new CountingSink();
		long[][][] nanos = new long[2][codings.length][rounds];
		long[] chunksBefore = new long[2];
		int warmUp = rounds / 4;
		for (int round = -warmUp; round < rounds; round++) {
			if (round == 0) {
				chunksBefore[0] = starters[0].pool().allocatedChunks();
				chunksBefore[1] = starters[1].pool().allocatedChunks();
			}
			for (int turn = 0; turn < 2; turn++) {
				// Each side goes first in every other round.
				int side = ((round & 1) == 0) ? turn : 1 - turn;
				for (int coding = 0; coding < codings.length; coding++) {
					for (Counter counter : changing) {
						counter.increment();
					}
					long start = System.nanoTime();
					ScrapeBenchmark.scrapeWithStarter(starters[side].endpoint(), starters[side].responder(),
							format(codings[coding]), acceptEncoding(codings[coding]), sink);
					long elapsed = System.nanoTime() - start;
					if (round >= 0) {
						nanos[side][coding][round] = elapsed;
					}
				}
			}
		}
		List<String> rows = new ArrayList<>();
		for (int coding = 0; coding < codings.length; coding++) {
			double reuse = median(nanos[0][coding]);
			double whole = median(nanos[1][coding]);
			double[] pairs = new double[rounds];
			for (int round = 0; round < rounds; round++) {
				pairs[round] = (double) nanos[0][coding][round] / nanos[1][coding][round];
			}
			Arrays.sort(pairs);
			rows.add(String.format(Locale.ROOT, "%s\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%d\t%d", mix,
					codings[coding], reuse / 1e6, whole / 1e6, reuse / whole, pairs[rounds / 4], pairs[rounds / 2],
					pairs[3 * rounds / 4], starters[0].pool().allocatedChunks() - chunksBefore[0],
					starters[1].pool().allocatedChunks() - chunksBefore[1]));
		}
		return rows;
	}

	private static LeanscrapeStarter starter(SyntheticRegistry registry, boolean reuse) {
		return LeanscrapeStarter.create(registry.meterRegistry(), PrometheusConfig.DEFAULT,
				"leanscrape.reuse.enabled=" + reuse);
	}

	private static PrometheusOutputFormat format(String scraper) {
		return scraper.endsWith("/text") ? PrometheusOutputFormat.CONTENT_TYPE_004
				: PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100;
	}

	private static @Nullable List<String> acceptEncoding(String scraper) {
		String coding = scraper.endsWith("/text") ? scraper.substring(0, scraper.length() - "/text".length()) : scraper;
		return coding.equals("identity") ? null : List.of(coding);
	}

	private static double median(long[] values) {
		long[] sorted = values.clone();
		Arrays.sort(sorted);
		return sorted[sorted.length / 2];
	}

}
