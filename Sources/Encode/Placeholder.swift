public enum EncodeModule {}
