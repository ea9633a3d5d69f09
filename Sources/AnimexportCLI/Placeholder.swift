public enum AnimexportCLIModule {}
