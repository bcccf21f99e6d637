"""Cross-checking another engine: drive it, fit its rules, shrink its disagreements."""
