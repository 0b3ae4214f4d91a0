package io.github.longstraw.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real broker: single-node KRaft Kafka from the Maven jars, in a forked JVM on 127.0.0.1 (always
 * stopped). Two topics of 6 partitions get the same 20,000 keys, one through LongstrawPartitioner
 * and one through Kafka's default; both grow to 8 partitions and get the keys again. The fraction of
 * keys whose partition changed is read from the records the broker stored.
 */
class KafkaBrokerIT {
  static final int KEYS = 20_000;

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  static Process java(Path log, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx512m");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  @Test
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void growingATopicMovesAQuarterOfTheKeysWithLongstraw(@TempDir Path dir) throws Exception {
    int port = freePort(), controller = freePort();
    Path props = dir.resolve("server.properties");
    Files.writeString(
        props,
        String.join(
            "\n",
            "process.roles=broker,controller",
            "node.id=1",
            "controller.quorum.voters=1@127.0.0.1:" + controller,
            "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controller,
            "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
            "controller.listener.names=CONTROLLER",
            "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
            "log.dirs=" + dir.resolve("data"),
            "offsets.topic.replication.factor=1",
            "transaction.state.log.replication.factor=1",
            "transaction.state.log.min.isr=1",
            "group.initial.rebalance.delay.ms=0",
            "num.partitions=1",
            ""));
    Process format =
        java(dir.resolve("format.log"), "kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(),
            "-c", props.toString(), "--ignore-formatted");
    assertTrue(format.waitFor(60, TimeUnit.SECONDS), "storage format hung");
    assertEquals(0, format.exitValue(), Files.readString(dir.resolve("format.log")));

    Path brokerLog = dir.resolve("broker.log");
    Process broker = java(brokerLog, "kafka.Kafka", props.toString());
    long started = System.nanoTime();
    try {
      String bootstrap = "127.0.0.1:" + port;
      Properties a = new Properties();
      a.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      a.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "90000");
      try (Admin admin = Admin.create(a)) {
        admin.describeCluster().nodes().get(90, TimeUnit.SECONDS);
        System.out.printf("kafka: broker up in %.1f s%n", (System.nanoTime() - started) / 1e9);
        admin.createTopics(List.of(new NewTopic("longstraw", 6, (short) 1), new NewTopic("default", 6, (short) 1)))
            .all().get(60, TimeUnit.SECONDS);
        produce(bootstrap, "1", 6);
        admin.createPartitions(Map.of("longstraw", NewPartitions.increaseTo(8), "default", NewPartitions.increaseTo(8)))
            .all().get(60, TimeUnit.SECONDS);
        produce(bootstrap, "2", 8);
      }
      Map<String, double[]> moved = new HashMap<>();
      for (String topic : List.of("longstraw", "default")) moved.put(topic, check(bootstrap, topic));
      double ls = moved.get("longstraw")[0], df = moved.get("default")[0];
      System.out.printf(
          "kafka: 6 -> 8 partitions, %d keys: moved %.4f with LongstrawPartitioner, %.4f with the default; "
              + "%d unmoved keys kept their order in one partition (whole test %.1f s)%n",
          KEYS, ls, df, (long) moved.get("longstraw")[1], (System.nanoTime() - started) / 1e9);
      // Binomial(20000, 1/4) and (20000, 3/4): sd 0.0031; 0.02 is more than 6 sd.
      assertTrue(Math.abs(ls - 0.25) < 0.02, "longstraw moved " + ls);
      assertTrue(Math.abs(df - 0.75) < 0.02, "default moved " + df);
    } finally {
      broker.destroy();
      if (!broker.waitFor(30, TimeUnit.SECONDS)) broker.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** Sends every key once to each topic (value = round), the longstraw topic through the partitioner. */
  static void produce(String bootstrap, String round, int partitions) throws Exception {
    for (String topic : List.of("longstraw", "default")) {
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
      p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
      p.put(ProducerConfig.ACKS_CONFIG, "all");
      p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
      if (topic.equals("longstraw")) p.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, LongstrawPartitioner.class.getName());
      try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
        // A new producer reads fresh metadata; wait until it sees the grown topic.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (producer.partitionsFor(topic).size() != partitions) {
          assertTrue(System.nanoTime() < deadline, topic + " never showed " + partitions + " partitions");
          Thread.sleep(200);
        }
        for (int i = 0; i < KEYS; i++) producer.send(new ProducerRecord<>(topic, "key-" + i, round));
        producer.flush();
      }
    }
  }

  /**
   * Reads back every record of {@code topic}: returns the fraction of keys whose round-2 record is
   * in another partition than their round-1 record, and the number of unmoved keys, after checking
   * that every unmoved key's records sit in one partition in order.
   */
  static double[] check(String bootstrap, String topic) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "5000");
    Map<String, List<ConsumerRecord<String, String>>> byKey = new HashMap<>();
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
      List<TopicPartition> parts = new ArrayList<>();
      for (int p = 0; p < 8; p++) parts.add(new TopicPartition(topic, p));
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      int seen = 0;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (seen < 2 * KEYS) {
        assertTrue(System.nanoTime() < deadline, topic + ": read only " + seen + " records");
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
          byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r);
          seen++;
        }
      }
      assertEquals(2 * KEYS, seen, topic);
    }
    int moved = 0, kept = 0;
    for (int i = 0; i < KEYS; i++) {
      List<ConsumerRecord<String, String>> rs = byKey.get("key-" + i);
      assertEquals(2, rs.size(), topic + " key-" + i);
      ConsumerRecord<String, String> first = rs.get(0).value().equals("1") ? rs.get(0) : rs.get(1);
      ConsumerRecord<String, String> second = first == rs.get(0) ? rs.get(1) : rs.get(0);
      assertEquals("2", second.value());
      if (first.partition() != second.partition()) {
        moved++;
        if (topic.equals("longstraw")) {
          assertTrue(second.partition() >= 6, "key-" + i + " moved between old partitions");
        }
      } else {
        assertTrue(first.offset() < second.offset(), topic + " key-" + i + " out of order");
        kept++;
      }
    }
    return new double[] {moved / (double) KEYS, kept};
  }

  static String text(Path p) throws IOException {
    return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
  }
}
