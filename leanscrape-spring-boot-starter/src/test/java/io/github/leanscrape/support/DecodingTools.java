package io.github.leanscrape.support;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Decodes compressed bodies with the command-line tools that users and scrapers' authors
 * trust, not with the libraries that encoded them: the {@code zstd} tool (the reference
 * implementation's own decoder), the {@code gzip} tool, and {@code curl --compressed}
 * (libcurl over zlib and libzstd). The tests that use them do not skip when one is
 * missing: they fail and say what to install.
 */
public final class DecodingTools {

	private DecodingTools() {
	}

	/**
	 * Decode a zstd stream with the {@code zstd} tool.
	 * @param compressed the stream
	 * @return the decoded bytes
	 */
	public static byte[] zstd(byte[] compressed) {
		return run(compressed, executable("zstd", "zstd").toString(), "-d", "-c", "-q");
	}

	/**
	 * Count the frames of a zstd stream, reading their headers and block headers as RFC
	 * 8878 lays them out (skippable frames count too).
	 * @param compressed the stream
	 * @return the frames
	 */
	public static int zstdFrames(byte[] compressed) {
		int frames = 0;
		int at = 0;
		while (at < compressed.length) {
			int magic = littleEndian(compressed, at, 4);
			at += 4;
			frames++;
			if ((magic & 0xFFFFFFF0) == 0x184D2A50) {
				at += 4 + littleEndian(compressed, at, 4);
				continue;
			}
			assertThat(magic).as("zstd magic number").isEqualTo(0xFD2FB528);
			int descriptor = compressed[at++] & 0xFF;
			boolean singleSegment = (descriptor & 0x20) != 0;
			int contentSizeFlag = descriptor >>> 6;
			at += singleSegment ? 0 : 1;
			at += new int[] { 0, 1, 2, 4 }[descriptor & 3];
			at += (contentSizeFlag == 0) ? (singleSegment ? 1 : 0) : (1 << contentSizeFlag);
			boolean last;
			do {
				int header = littleEndian(compressed, at, 3);
				at += 3;
				last = (header & 1) != 0;
				int type = (header >>> 1) & 3;
				at += (type == 1) ? 1 : (header >>> 3);
			}
			while (!last);
			at += ((descriptor & 0x04) != 0) ? 4 : 0;
		}
		return frames;
	}

	private static int littleEndian(byte[] bytes, int at, int length) {
		int value = 0;
		for (int i = length - 1; i >= 0; i--) {
			value = (value << 8) | (bytes[at + i] & 0xFF);
		}
		return value;
	}

	/**
	 * Decode a gzip stream with the {@code gzip} tool.
	 * @param compressed the stream
	 * @return the decoded bytes
	 */
	public static byte[] gzip(byte[] compressed) {
		return run(compressed, executable("gzip", "gzip").toString(), "-d", "-c");
	}

	/**
	 * Fetch a URL with {@code curl --compressed} and return the body as curl decoded it.
	 * Without an {@code Accept-Encoding} among the headers, curl sends its own (every
	 * coding it can decode).
	 * @param url the URL
	 * @param headers further request headers, each {@code "Name: value"}
	 * @return the decoded body
	 */
	public static byte[] curlCompressed(String url, String... headers) {
		List<String> command = new ArrayList<>(List.of(executable("curl", "curl").toString(), "--silent",
				"--show-error", "--fail", "--compressed", "--output", "-"));
		for (String header : headers) {
			command.add("--header");
			command.add(header);
		}
		command.add(url);
		return run(new byte[0], command.toArray(new String[0]));
	}

	/**
	 * Run a Python script with Debian's Python ({@code /usr/bin/python3}, where Debian's
	 * {@code python3-zstandard} is installed), the input on its standard input.
	 * @param stdinBytes the input
	 * @param script the script
	 * @return what it wrote to its standard output
	 */
	public static byte[] python(byte[] stdinBytes, String script) {
		Path python = Path.of("/usr/bin/python3");
		if (!Files.isExecutable(python)) {
			fail("/usr/bin/python3 is missing. These tests decode zstd bodies with Debian's python-zstandard; "
					+ "install it (apt-get install python3-zstandard). .ci/run installs it.");
		}
		byte[] check = run(new byte[0], python.toString(), "-c",
				"import importlib.util, sys; sys.stdout.write(str(importlib.util.find_spec('zstandard') is not None))");
		if (!new String(check, StandardCharsets.US_ASCII).equals("True")) {
			fail("Debian's python-zstandard is missing. These tests decode zstd bodies with it; install it "
					+ "(apt-get install python3-zstandard). .ci/run installs it.");
		}
		return run(stdinBytes, python.toString(), "-c", script);
	}

	private static byte[] run(byte[] stdinBytes, String... command) {
		try {
			Process process = new ProcessBuilder(command).start();
			CompletableFuture<Void> input = CompletableFuture.runAsync(() -> {
				try (OutputStream stdin = process.getOutputStream()) {
					stdin.write(stdinBytes);
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			});
			CompletableFuture<byte[]> errors = CompletableFuture.supplyAsync(() -> {
				try (InputStream stderr = process.getErrorStream()) {
					return stderr.readAllBytes();
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			});
			byte[] output;
			try (InputStream stdout = process.getInputStream()) {
				ByteArrayOutputStream out = new ByteArrayOutputStream();
				stdout.transferTo(out);
				output = out.toByteArray();
			}
			input.join();
			assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("%s finished", command[0]).isTrue();
			assertThat(process.exitValue())
				.as("%s's exit status: %s", command[0], new String(errors.join(), StandardCharsets.UTF_8))
				.isZero();
			return output;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static Path executable(String name, String debianPackage) {
		String path = System.getenv("PATH");
		if (path != null) {
			for (String directory : path.split(File.pathSeparator)) {
				Path candidate = Path.of(directory, name);
				if (!directory.isEmpty() && Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
					return candidate;
				}
			}
		}
		return fail("'" + name + "' is not on the PATH. These tests decode compressed bodies with it; install it "
				+ "(Debian and Ubuntu: apt-get install " + debianPackage + "). .ci/run installs it.");
	}

}
