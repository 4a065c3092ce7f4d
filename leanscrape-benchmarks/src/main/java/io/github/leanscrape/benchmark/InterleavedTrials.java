package io.github.leanscrape.benchmark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.leanscrape.support.RunRecord;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A JMH run made of trials, for effects smaller than this machine's drift: JMH runs every
 * fork of one configuration before the next, so two configurations timed a few minutes
 * apart differ by the drift too. Here each trial is a JMH run of every configuration of
 * the arguments with one fork each, in JMH's order (the parameter last by name varies
 * fastest, so {@code reuse=true,false} times the two sides of each configuration one
 * after the other), and the trials run one after another. The trials' results are merged
 * into the one result file the arguments name ({@code -rff}): each result has one fork
 * per trial, in the order of the trials, so that fork {@code i} of two results was timed
 * a moment apart, and its score is the mean of every iteration. The record of the run is
 * written into the index of runs beside it ({@code runs.txt}, {@code RunRecord}).
 * <p>
 * Arguments: the number of trials, then JMH's arguments (any {@code -f} is replaced by
 * one fork).
 *
 * @author leanscrape
 */
public final class InterleavedTrials {

	/**
	 * The metrics of JMH's GC profiler that a fork without a collection leaves out
	 * ({@code gc.count} is written as 0): a trial without one has an empty fork in their
	 * place, so that fork {@code i} stays trial {@code i}.
	 */
	private static final Set<String> OMITTED_WHEN_NONE = Set.of("gc.time");

	private InterleavedTrials() {
	}

	/**
	 * Run the trials and merge their results.
	 * @param args the number of trials, then JMH's arguments
	 * @throws Exception when a trial fails or the results cannot be written
	 */
	public static void main(String[] args) throws Exception {
		if (args.length < 2) {
			throw new IllegalArgumentException("Usage: InterleavedTrials <trials> <JMH arguments, with -rff FILE>");
		}
		int trials = Integer.parseInt(args[0]);
		List<String> jmhArgs = new ArrayList<>();
		Path results = null;
		for (int i = 1; i < args.length; i++) {
			if (args[i].equals("-rff") && i + 1 < args.length) {
				results = Path.of(args[++i]);
			}
			else if ((args[i].equals("-f") || args[i].equals("-rf")) && i + 1 < args.length) {
				i++;
			}
			else {
				jmhArgs.add(args[i]);
			}
		}
		if (results == null) {
			throw new IllegalArgumentException("Name the result file with -rff");
		}
		List<Path> trialFiles = new ArrayList<>();
		for (int trial = 1; trial <= trials; trial++) {
			Path trialFile = results.resolveSibling(results.getFileName() + ".trial-" + trial);
			trialFiles.add(trialFile);
			run(jmhArgs, trialFile);
		}
		Files.writeString(results, merge(trialFiles), StandardCharsets.UTF_8);
		for (Path trialFile : trialFiles) {
			Files.delete(trialFile);
		}
		writeRunRecord(results, args);
		System.out.println("Wrote " + results + " (" + trials + " trials)");
	}

	private static void run(List<String> jmhArgs, Path trialFile) throws CommandLineOptionException, RunnerException {
		List<String> trialArgs = new ArrayList<>(jmhArgs);
		trialArgs.addAll(List.of("-f", "1", "-rf", "json", "-rff", trialFile.toString()));
		new Runner(new CommandLineOptions(trialArgs.toArray(new String[0]))).run();
	}

	/**
	 * Merge the results of the trials: the forks of each result, in the order of the
	 * trials.
	 * @param trialFiles the trials' result files
	 * @return the merged results, as JMH writes them
	 */
	static String merge(List<Path> trialFiles) {
		JsonMapper mapper = new JsonMapper();
		Map<String, ObjectNode> merged = new LinkedHashMap<>();
		for (Path trialFile : trialFiles) {
			for (JsonNode result : mapper.readTree(trialFile.toFile())) {
				String key = result.get("benchmark").asString() + " " + result.get("mode").asString() + " "
						+ result.get("params");
				ObjectNode into = merged.get(key);
				if (into == null) {
					merged.put(key, ((ObjectNode) result).deepCopy());
					continue;
				}
				int forksBefore = into.get("primaryMetric").get("rawData").size();
				append(into.get("primaryMetric"), result.get("primaryMetric"));
				ObjectNode secondaries = (ObjectNode) into.get("secondaryMetrics");
				JsonNode resultSecondaries = result.get("secondaryMetrics");
				for (Map.Entry<String, JsonNode> secondary : resultSecondaries.properties()) {
					JsonNode metric = secondaries.get(secondary.getKey());
					if (metric == null && OMITTED_WHEN_NONE.contains(secondary.getKey())) {
						// First seen in this trial: the trials before it had none.
						ObjectNode added = ((ObjectNode) secondary.getValue()).deepCopy();
						ArrayNode forks = added.putArray("rawData");
						for (int fork = 0; fork < forksBefore; fork++) {
							forks.addArray();
						}
						secondaries.set(secondary.getKey(), added);
						metric = added;
					}
					if (metric != null) {
						append(metric, secondary.getValue());
					}
				}
				for (String omitted : OMITTED_WHEN_NONE) {
					JsonNode metric = secondaries.get(omitted);
					if (metric != null && !resultSecondaries.has(omitted)) {
						((ArrayNode) metric.get("rawData")).addArray();
					}
				}
			}
		}
		ArrayNode out = mapper.createArrayNode();
		for (Map.Entry<String, ObjectNode> entry : merged.entrySet()) {
			ObjectNode result = entry.getValue();
			// A configuration that failed in a trial (JMH goes on) would pair fork i
			// with another trial's: the run is refused, its trials' files kept.
			checkForks(entry.getKey(), "primaryMetric", result.get("primaryMetric"), trialFiles.size());
			for (Map.Entry<String, JsonNode> secondary : result.get("secondaryMetrics").properties()) {
				checkForks(entry.getKey(), secondary.getKey(), secondary.getValue(), trialFiles.size());
			}
			result.put("forks", trialFiles.size());
			rescore(result.get("primaryMetric"));
			for (Map.Entry<String, JsonNode> secondary : result.get("secondaryMetrics").properties()) {
				rescore(secondary.getValue());
			}
			out.add(result);
		}
		return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(out);
	}

	private static void checkForks(String result, String metric, JsonNode node, int trials) {
		int forks = node.get("rawData").size();
		if (forks != trials) {
			throw new IllegalStateException(result + ": " + metric + " has " + forks + " forks in " + trials
					+ " trials; the trials' files are kept");
		}
	}

	private static void append(JsonNode into, JsonNode from) {
		ArrayNode forks = (ArrayNode) into.get("rawData");
		for (JsonNode fork : from.get("rawData")) {
			forks.add(fork);
		}
	}

	/**
	 * Score a metric of several trials as the mean of its iterations; JMH's error and
	 * percentiles of one trial would not hold for all.
	 * @param metric the metric, rescored in place
	 */
	private static void rescore(JsonNode metric) {
		double sum = 0;
		int count = 0;
		for (JsonNode fork : metric.get("rawData")) {
			for (JsonNode iteration : fork) {
				sum += iteration.asDouble();
				count++;
			}
		}
		ObjectNode node = (ObjectNode) metric;
		node.put("score", (count > 0) ? sum / count : Double.NaN);
		node.remove(List.of("scoreError", "scoreConfidence", "scorePercentiles"));
	}

	private static void writeRunRecord(Path results, String[] args) throws IOException {
		String command = "./mvnw -Pjmh -DskipTests -pl leanscrape-benchmarks -am test-compile"
				+ " exec:exec@interleaved-trials \"-Dinterleaved-trials.args=" + String.join(" ", args) + "\"";
		Map<String, String> run = new LinkedHashMap<>(RunRecord.describe(command));
		run.put("trials", args[0] + ", one after another, each a JMH run of every result"
				+ " with one fork: fork i of every result is trial i");
		RunRecord.write(results, run);
	}

}
